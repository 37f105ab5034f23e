import ScrollCore

/// A room's latest frame for one theme, encoded once: every client of that theme is
/// handed these same buffers. Only the service thread touches it.
package final class SharedFrame {
    package let seq: UInt32
    package let delta: SharedPayload
    /// False when the frame looks exactly like frame `seq − 1`.
    package let changed: Bool
    private var madeFull: SharedPayload?
    private let makeFull: () -> SharedPayload

    /// The frame standing alone, made the first time a client needs it (a newcomer, or one a
    /// frame behind): while everyone keeps up, frames go out as deltas only.
    package var full: SharedPayload {
        if let madeFull { return madeFull }
        let made = makeFull()
        madeFull = made
        return made
    }

    package init(seq: UInt32, delta: SharedPayload, changed: Bool, full: @escaping () -> SharedPayload) {
        self.seq = seq
        self.delta = delta
        self.changed = changed
        makeFull = full
    }

    package convenience init(seq: UInt32, full: SharedPayload, delta: SharedPayload, changed: Bool) {
        self.init(seq: seq, delta: delta, changed: changed, full: { full })
    }
}
