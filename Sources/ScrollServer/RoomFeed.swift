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

/// One `events` message, encoded once per room and queued for each of its clients.
package struct EventBatch {
    package let payload: SharedPayload
    /// Events in it: what counts against `maxQueuedEvents`.
    package let count: Int
}

extension EventBatch {
    init(_ events: [SceneEvent], headroom: Int) {
        self.init(payload: SharedPayload(text: ServerMessage.events(events), headroom: headroom), count: events.count)
    }
}

/// What a client's queue reads from its room when it may write: `Room`, or a fake in tests.
package protocol RoomFeed: AnyObject {
    /// Grows whenever the semantics change.
    var semanticsVersion: Int { get }
    var semantics: SharedPayload { get }
    /// Grows whenever someone joins or leaves.
    var presenceVersion: Int { get }
    var presenceMessage: SharedPayload { get }
    /// The latest frame (rendered on demand).
    func frame(theme: Theme) -> SharedFrame
}
