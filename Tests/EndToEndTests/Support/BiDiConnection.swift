import Foundation

/// WebDriver BiDi over one WebSocket: a command is answered with `{"type": "success", "result": …}`
/// or `{"type": "error", "error": …, "message": …}`, and events are
/// `{"type": "event", "method": …, "params": …}`.
final class BiDiConnection: CommandChannel {
    /// Sends `method` and waits for its result; throws on an error reply or when `timeout` passes.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], timeout: Double = 10) throws -> [String: Any] {
        let response = try request(method, params, what: "WebDriver BiDi", timeout: timeout)
        guard response["type"] as? String == "success" else {
            let text = [response["error"], response["message"]].compactMap { $0.map { "\($0)" } }
            throw HarnessError.bidi(method: method, message: text.joined(separator: ": "))
        }
        return response["result"] as? [String: Any] ?? [:]
    }

    /// Waits for the next event named `method` whose params match, and returns its params.
    func waitForEvent(_ method: String, timeout: Double, where matches: ([String: Any]) -> Bool) throws -> [String: Any]
    {
        let event = try nextEvent(method, what: "WebDriver BiDi", timeout: timeout) {
            matches($0["params"] as? [String: Any] ?? [:])
        }
        return event["params"] as? [String: Any] ?? [:]
    }
}
