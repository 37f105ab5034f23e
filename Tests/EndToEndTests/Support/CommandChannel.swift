import Foundation
import WebSocketClient

/// Numbered JSON commands over one WebSocket, each answered by a message carrying its `id`; every
/// other message is an event, buffered until someone waits for it. The DevTools protocol
/// (`DevToolsConnection`) and WebDriver BiDi (`BiDiConnection`) both work this way; each subclass
/// says how a command is addressed and how an error is told.
class CommandChannel {
    /// Events kept for `waitForEvent`; older ones are dropped beyond this many.
    private static let eventBufferLimit = 1000

    private let socket: WebSocketClient
    private var nextID = 1
    private var responses: [Int: [String: Any]] = [:]
    private var events: [[String: Any]] = []
    /// Called with every event as it arrives, before it is buffered.
    var onEvent: ([String: Any]) -> Void = { _ in }

    init(url: String, timeout: Double) throws {
        socket = try WebSocketClient(url: url, timeout: timeout)
    }

    /// Sends `method` with `params` (and any `fields` beside them) and waits for the message that
    /// answers it; throws a timeout naming `what` when `timeout` passes first.
    func request(
        _ method: String, _ params: [String: Any], fields: [String: Any] = [:], what: String, timeout: Double
    ) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        let message = fields.merging(["id": id, "method": method, "params": params]) { _, new in new }
        let data = try JSONSerialization.data(withJSONObject: message)
        try socket.send(text: String(decoding: data, as: UTF8.self))
        let deadline = Deadline(seconds: timeout)
        while true {
            if let response = responses.removeValue(forKey: id) { return response }
            guard try receiveOne(deadline: deadline) else {
                throw HarnessError.timeout("waiting \(timeout)s for the reply to \(what) \(method)")
            }
        }
    }

    /// Removes any buffered events named `method` (for a new wait that must see a fresh one).
    func discardEvents(named method: String) {
        events.removeAll { $0["method"] as? String == method }
    }

    /// Waits for the next event named `method` that `matches` and returns it whole.
    func nextEvent(
        _ method: String, what: String, timeout: Double, where matches: ([String: Any]) -> Bool
    ) throws -> [String: Any] {
        let deadline = Deadline(seconds: timeout)
        while true {
            if let match = events.firstIndex(where: { $0["method"] as? String == method && matches($0) }) {
                return events.remove(at: match)
            }
            guard try receiveOne(deadline: deadline) else {
                throw HarnessError.timeout("waiting \(timeout)s for \(what) event \(method)")
            }
        }
    }

    /// Closes the WebSocket (the browser may already have dropped it).
    func close() {
        socket.close()
    }

    /// Reads one message and files it as a response or an event; false if `deadline` passed.
    private func receiveOne(deadline: Deadline) throws -> Bool {
        guard let message = try socket.receive(timeout: deadline.remaining) else { return false }
        guard case .text(let text) = message,
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return true }
        if let id = json["id"] as? Int {
            responses[id] = json
        } else {
            onEvent(json)
            events.append(json)
            if events.count > Self.eventBufferLimit { events.removeFirst(events.count - Self.eventBufferLimit) }
        }
        return true
    }
}
