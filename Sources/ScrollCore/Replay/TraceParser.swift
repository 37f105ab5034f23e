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
                throw TraceError(name: name, line: line, message:
                    "\"\(entry.at == nil ? "t" : "at")\" is \(JSONValue.format(time)) ms, before line \(previous.line)'s \(JSONValue.format(previous.time)) ms; lines must be in time order")
            }
            if let last = latest[entry.client], entry.t < last.t {
                throw TraceError(name: name, line: line, message:
                    "\"t\" is \(JSONValue.format(entry.t)) ms, before line \(last.line)'s \(JSONValue.format(last.t)) ms of the same client \"\(entry.client)\"; each client's times must be in order")
            }
            previous = (time, line)
            latest[entry.client] = (entry.t, line)
            entries.append(entry)
        }
        return entries
    }

    /// One non-comment line; the error carries only the message (the caller adds the place).
    static func parseLine(_ text: String) throws(LineError) -> TraceEntry {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
        } catch {
            throw LineError("not valid JSON")
        }
        guard let raw = object as? [String: Any] else { throw LineError("must be a JSON object") }
        let f = LineFields(raw: raw)

        let typeName = try f.string("type", required: true)!
        guard let type = TraceEntry.Kind(rawValue: typeName) else {
            let known = TraceEntry.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw LineError("\"type\" must be one of \(known), not \"\(typeName.prefix(40))\"")
        }
        var entry = TraceEntry(t: try f.number("t", required: true, range: 0...maxTime, unit: "ms")!, type: type)
        entry.at = try f.number("at", range: 0...maxTime, unit: "ms")
        entry.client = try f.string("client", length: 1...64) ?? TraceEntry.defaultClient
        let limit = ClientMessageLimits.maxCoordinate
        switch type {
        case .down, .move, .up, .cancel:
            entry.x = try f.number("x", required: true, range: -limit...limit, for: typeName)!
            entry.y = try f.number("y", required: true, range: -limit...limit, for: typeName)!
            entry.pointer = try f.integer("pointer", range: Int(Int32.min)...Int(Int32.max)) ?? TraceEntry.defaultPointer
        case .wheel:
            entry.x = try f.number("x", required: true, range: -limit...limit, for: typeName)!
            entry.y = try f.number("y", required: true, range: -limit...limit, for: typeName)!
            let delta = ClientMessageLimits.maxDelta
            entry.dx = try f.number("dx", range: -delta...delta) ?? 0
            entry.dy = try f.number("dy", range: -delta...delta) ?? 0
            entry.deltaMode = try f.integer("deltaMode", range: 0...2) ?? 0
        case .key:
            entry.key = try f.string("key", required: true, length: 1...32, for: typeName)!
            entry.widget = try f.string("widget", length: 1...64) ?? TraceEntry.defaultWidget
        }
        return entry
    }

    struct LineError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

/// Typed access to one line's fields; messages name the field. Unknown fields are ignored.
private struct LineFields {
    let raw: [String: Any]

    private func value(_ key: String, required: Bool, for type: String?) throws(TraceParser.LineError) -> Any? {
        guard let v = raw[key], !(v is NSNull) else {
            if required {
                throw TraceParser.LineError(type.map { "\"\(key)\" is required on a \($0) line" } ?? "\"\(key)\" is required")
            }
            return nil
        }
        return v
    }

    func number(_ key: String, required: Bool = false, range: ClosedRange<Double>, unit: String = "pt",
                for type: String? = nil) throws(TraceParser.LineError) -> Double? {
        guard let v = try value(key, required: required, for: type) else { return nil }
        guard let d = Fields.finite(v) else { throw TraceParser.LineError("\"\(key)\" must be a finite number") }
        guard range.contains(d) else {
            throw TraceParser.LineError(
                "\"\(key)\" must be within \(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound)) \(unit)")
        }
        return d
    }

    func integer(_ key: String, range: ClosedRange<Int>) throws(TraceParser.LineError) -> Int? {
        guard let v = try value(key, required: false, for: nil) else { return nil }
        guard let d = Fields.finite(v), d == d.rounded(), d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw TraceParser.LineError("\"\(key)\" must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(d)
    }

    func string(_ key: String, required: Bool = false, length: ClosedRange<Int> = 1...64,
                for type: String? = nil) throws(TraceParser.LineError) -> String? {
        guard let v = try value(key, required: required, for: type) else { return nil }
        guard let s = v as? String else { throw TraceParser.LineError("\"\(key)\" must be a string") }
        guard length.contains(s.count) else {
            throw TraceParser.LineError("\"\(key)\" must be \(length.lowerBound)–\(length.upperBound) characters")
        }
        return s
    }
}
