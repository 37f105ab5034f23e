import ScrollCore

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
