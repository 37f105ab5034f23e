import Foundation

/// The Chrome DevTools Protocol over one browser-level WebSocket. Calls to a page go over the same
/// socket, tagged with the `sessionId` of a flat-mode attachment.
final class DevToolsConnection: CommandChannel {
    /// Sends `method` and waits for its result; throws on a CDP error or when `timeout` passes.
    func call(_ method: String, _ params: [String: Any], sessionID: String?, timeout: Double) throws -> [String: Any] {
        let response = try request(
            method, params, fields: sessionID.map { ["sessionId": $0] } ?? [:], what: "CDP", timeout: timeout)
        if let error = response["error"] as? [String: Any] {
            let text = [error["message"], error["data"]].compactMap { $0.map { "\($0)" } }.joined(separator: ": ")
            throw HarnessError.devTools(method: method, message: text)
        }
        return response["result"] as? [String: Any] ?? [:]
    }

    /// Waits for the next event named `method` (from `sessionID`, if given) and returns its params.
    func waitForEvent(_ method: String, sessionID: String?, timeout: Double) throws -> [String: Any] {
        let event = try nextEvent(method, what: "CDP", timeout: timeout) {
            sessionID == nil || $0["sessionId"] as? String == sessionID
        }
        return event["params"] as? [String: Any] ?? [:]
    }
}
