import Foundation

/// Reads the JSON Lines trace format (docs/TRACES.md). Pure: the text comes in, entries
/// or a `TraceError` naming the line come out.
public enum TraceParser {
    /// Beyond this (ms, about 3 years) a time is a mistake, not a long session.
    public static let maxTime = 1e11

    public static func parse(_ text: String, name: String) throws(TraceError) -> [TraceEntry] {
        var entries: [TraceEntry] = []
        // The previous line's scene time (`at ?? t`), and each client's latest `t`.
        var previous: (time: Double, line: Int)?
        var latest: [String: (t: Double, line: Int)] = [:]
        // "\r\n" is one Character in Swift, so CRLF files need it named as a separator.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, raw) in lines.enumerated() {
            let line = index + 1
            let content = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if content.isEmpty || content.hasPrefix("#") { continue }
            let entry: TraceEntry
            do {
                entry = try parseLine(content)
            } catch {
                throw TraceError(name: name, line: line, message: error.message)
            }
            // Lines are in scene-time order; `t` may then go back between clients (their
            // clocks are independent), but never within one client.
            let time = entry.sceneTime
            if let previous, time < previous.time {
                throw TraceError(
                    name: name, line: line,
                    message:
                        "\"\(entry.at == nil ? "t" : "at")\" is \(JSONValue.format(time)) ms, before line \(previous.line)'s \(JSONValue.format(previous.time)) ms; lines must be in time order"
                )
            }
            if let last = latest[entry.client], entry.t < last.t {
                throw TraceError(
                    name: name, line: line,
                    message:
                        "\"t\" is \(JSONValue.format(entry.t)) ms, before line \(last.line)'s \(JSONValue.format(last.t)) ms of the same client \"\(entry.client)\"; each client's times must be in order"
                )
            }
            previous = (time, line)
            latest[entry.client] = (entry.t, line)
            entries.append(entry)
        }
        return entries
    }

    /// One non-comment line; the error carries only the message (the caller adds the place).
    static func parseLine(_ text: String) throws(LineError) -> TraceEntry {
        do {
            return try JSONObjectDecoder.decode(from: text, TraceEntry.init(fields:))
        } catch {
            switch error {
            case .notJSON: throw LineError("not valid JSON")
            case .notObject: throw LineError("must be a JSON object")
            case .field(let e): throw LineError(e.message(naming: "\"\(e.field)\""))
            case .other(let e): throw LineError("\(e)")
            }
        }
    }

    struct LineError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
