import Foundation
import WebSocketClient

/// The Chrome DevTools Protocol over one browser-level WebSocket: numbered calls matched
/// to their responses, and events buffered until someone waits for them. Calls to a page
/// go over the same socket, tagged with the `sessionId` of a flat-mode attachment.
final class DevToolsConnection {
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

    /// Sends `method` and waits for its result; throws on a CDP error or when `timeout` passes.
    func call(_ method: String, _ params: [String: Any], sessionID: String?, timeout: Double) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let sessionID { message["sessionId"] = sessionID }
        let data = try JSONSerialization.data(withJSONObject: message)
        try socket.send(text: String(decoding: data, as: UTF8.self))

        let deadline = Deadline(seconds: timeout)
        while true {
            if let response = responses.removeValue(forKey: id) {
                if let error = response["error"] as? [String: Any] {
                    let text = [error["message"], error["data"]].compactMap { $0.map { "\($0)" } }.joined(
                        separator: ": ")
                    throw HarnessError.devTools(method: method, message: text)
                }
                return response["result"] as? [String: Any] ?? [:]
            }
            guard try receiveOne(deadline: deadline) else {
                throw HarnessError.timeout("waiting \(timeout)s for the reply to CDP \(method)")
            }
        }
    }

    /// Removes any buffered events named `method` (for a new wait that must see a fresh one).
    func discardEvents(named method: String) {
        events.removeAll { $0["method"] as? String == method }
    }

    /// Waits for the next event named `method` (from `sessionID`, if given) and returns its params.
    func waitForEvent(_ method: String, sessionID: String?, timeout: Double) throws -> [String: Any] {
        let deadline = Deadline(seconds: timeout)
        while true {
            let match = events.firstIndex {
                $0["method"] as? String == method && (sessionID == nil || $0["sessionId"] as? String == sessionID)
            }
            if let match { return events.remove(at: match)["params"] as? [String: Any] ?? [:] }
            guard try receiveOne(deadline: deadline) else {
                throw HarnessError.timeout("waiting \(timeout)s for CDP event \(method)")
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
