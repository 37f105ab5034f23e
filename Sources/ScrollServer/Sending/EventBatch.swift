import ScrollCore

/// One `events` message, encoded once per room and queued for each of its clients (its bytes
/// count against the slow-reader rule).
package struct EventBatch {
    package let payload: SharedPayload
}

extension EventBatch {
    init(_ route: EventsAhead.Route, headroom: Int) {
        let text = ServerMessage.events(
            route.now, ahead: route.ahead, cancel: route.cancel.map { ($0.widget, $0.after) })
        self.init(payload: SharedPayload(text: text, headroom: headroom))
    }
}
