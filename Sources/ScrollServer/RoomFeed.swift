import ScrollCore

/// A room's latest frame for one theme, encoded once: every client of that theme is
/// handed these same buffers.
package struct SharedFrame {
    package let seq: UInt32
    package let full: SharedPayload
    package let delta: SharedPayload
    /// False when the frame looks exactly like frame `seq − 1`.
    package let changed: Bool
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
