import ScrollCore

/// One `events` message, encoded once per room and queued for each of its clients (its bytes
/// count against the slow-reader rule).
package struct EventBatch {
    package let payload: SharedPayload
}

extension EventBatch {
    init(_ events: [SceneEvent], headroom: Int) {
        self.init(payload: SharedPayload(text: ServerMessage.events(events), headroom: headroom))
    }
}
