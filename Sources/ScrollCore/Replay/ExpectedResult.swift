/// What a replay should end with, as `widget-replay` prints it (`ReplayResult.json`) or a golden
/// trace's `.expected.json` holds it: `widgets` and `events`, and optionally `time` and `refused`.
/// `firstDifference` says where a result first differs from it (`widget-replay --expect`, and the
/// golden-trace tests).
///
/// Compared: every event in order, field by field (its time within `timeTolerance`, every other
/// field exactly); then every widget's fields; then `time` (within the tolerance) and the refused
/// lines (`line` only: the error is in the words of whoever wrote the file), each only when the
/// expectation has it. Fields compare as JSON values, objects without regard to their order.
public struct ExpectedResult: Sendable {
    /// Times may differ by this much (s): expected files are written to 1 ns by an independent
    /// model of the spec, whose arithmetic is not ScrollCore's.
    public static let timeTolerance = 1e-6

    public let widgets: [(String, JSONValue)]
    public let events: [JSONValue]
    public let time: Double?
    public let refused: [JSONValue]?

    /// Why a text is not an expected result, in one line.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(parsing text: String) throws(Invalid) {
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch {
            throw Invalid(description: "not valid JSON (at byte \(error.offset))")
        }
        try self.init(value)
    }

    public init(_ value: JSONValue) throws(Invalid) {
        guard case .object(let fields) = value else { throw Invalid(description: "not a JSON object") }
        let field = { (name: String) in fields.first { $0.0 == name }?.1 }
        guard case .object(let widgets)? = field("widgets") else {
            throw Invalid(description: "\"widgets\" must be an object of each widget's value and text")
        }
        guard case .array(let events)? = field("events") else {
            throw Invalid(description: "\"events\" must be an array of events")
        }
        for (i, event) in events.enumerated() where !event.isObject || event["t"]?.number == nil {
            throw Invalid(description: "event \(i + 1) must be an object with a time \"t\" (s)")
        }
        switch field("time") {
        case nil: time = nil
        case .number(let t)?: time = t
        default: throw Invalid(description: "\"time\" must be a number (s)")
        }
        switch field("refused") {
        case nil: refused = nil
        case .array(let lines)?: refused = lines.map { $0["line"] ?? $0 }
        default: throw Invalid(description: "\"refused\" must be an array")
        }
        self.widgets = widgets
        self.events = events
    }

    /// Where `result` (a replay's `ReplayResult.json`) first differs from this; nil when it does not.
    public func firstDifference(from result: JSONValue) -> ResultDifference? {
        let actualEvents = result["events"]?.array ?? []
        let end = result["time"]?.number ?? 0
        if let difference = eventDifference(actualEvents) { return difference }
        let actualWidgets = result["widgets"]?.fields ?? []
        if let difference = widgetDifference(actualWidgets, end: end) { return difference }
        if let time, abs(time - end) > Self.timeTolerance {
            return ResultDifference(
                time: end, atEnd: true, subject: "the result",
                complaint: "\"time\" is \(seconds(end)), expected \(seconds(time))")
        }
        if let difference = refusedDifference(result["refused"]?.array ?? []) { return difference }
        return nil
    }

    // MARK: - Events, widgets, refused lines

    private func eventDifference(_ actual: [JSONValue]) -> ResultDifference? {
        Self.sequenceDifference(
            actual, events, noun: "events", seconds: true, time: { $0["t"]?.number ?? 0 },
            describe: { event, number in
                var what = [event["widget"]?.string, event["type"]?.string].compactMap { $0 }.joined(separator: " ")
                if event["final"] == .bool(true) { what += ", final" }
                return "event \(number)" + (what.isEmpty ? "" : " (\(what))")
            })
    }

    private func refusedDifference(_ actual: [JSONValue]) -> ResultDifference? {
        let lines = actual.map { $0["line"] ?? $0 }
        guard refused != nil || !lines.isEmpty else { return nil }
        // A line's time is its scene time in ms: `at`, else `t`.
        return Self.sequenceDifference(
            lines, refused ?? [], noun: "refused lines", seconds: false,
            time: { ($0["at"]?.number ?? $0["t"]?.number ?? 0) / 1000 },
            describe: { _, number in "refused line \(number)" })
    }

    /// The first item of `actual` that differs from `expected`'s at the same place. One more or
    /// one fewer is named as such ("is not expected", "is missing"), rather than every item after it.
    private static func sequenceDifference(
        _ actual: [JSONValue], _ expected: [JSONValue], noun: String, seconds: Bool, time: (JSONValue) -> Double,
        describe: (JSONValue, Int) -> String
    ) -> ResultDifference? {
        let same = { (a: JSONValue, e: JSONValue) in fieldDifference(a, e, seconds: seconds) == nil }
        let counts = "the result has \(actual.count) \(noun), the expectation \(expected.count)"
        for i in 0..<max(actual.count, expected.count) {
            let a = i < actual.count ? actual[i] : nil, e = i < expected.count ? expected[i] : nil
            if let a, let e, same(a, e) { continue }
            if let a, e == nil || (i + 1 < actual.count && same(actual[i + 1], e!)) {
                return ResultDifference(
                    time: time(a), subject: describe(a, i + 1), complaint: "is not expected (\(counts))", result: a)
            }
            if let e, a == nil || (i + 1 < expected.count && same(a!, expected[i + 1])) {
                return ResultDifference(
                    time: time(e), subject: describe(e, i + 1), complaint: "is missing from the result (\(counts))",
                    expected: e)
            }
            guard let a, let e else { continue }
            return ResultDifference(
                time: time(a), subject: describe(a, i + 1),
                complaint: fieldDifference(a, e, seconds: seconds) ?? "differs", result: a, expected: e)
        }
        return nil
    }

    private func widgetDifference(_ actual: [(String, JSONValue)], end: Double) -> ResultDifference? {
        let subject = { (id: String) in "widget \(JSONValue.string(id).serialized)" }
        for (id, expected) in widgets {
            guard let a = actual.first(where: { $0.0 == id })?.1 else {
                return ResultDifference(
                    time: end, atEnd: true, subject: subject(id), complaint: "is missing from the result",
                    expected: expected)
            }
            if let complaint = Self.fieldDifference(a, expected, seconds: false) {
                return ResultDifference(
                    time: end, atEnd: true, subject: subject(id), complaint: complaint, result: a, expected: expected)
            }
        }
        if let (id, a) = actual.first(where: { id, _ in !widgets.contains { $0.0 == id } }) {
            return ResultDifference(
                time: end, atEnd: true, subject: subject(id), complaint: "is not expected", result: a)
        }
        return nil
    }

    // MARK: - Fields

    /// What first differs between two objects (the expected one's fields first, in its order),
    /// as `"value" is 79.7, expected 79.8`; nil when nothing does. With `seconds`, `t` is a
    /// time in seconds and may differ by the tolerance.
    static func fieldDifference(_ actual: JSONValue, _ expected: JSONValue, seconds inSeconds: Bool) -> String? {
        guard let a = actual.fields, let e = expected.fields else {
            return same(actual, expected) ? nil : "is \(actual.serialized), expected \(expected.serialized)"
        }
        for (key, want) in e {
            let name = JSONValue.string(key).serialized
            guard let have = a.first(where: { $0.0 == key })?.1 else {
                return "\(name) is missing, expected \(want.serialized)"
            }
            if inSeconds, key == "t", let x = have.number, let y = want.number {
                if abs(x - y) > timeTolerance { return "\(name) is \(seconds(x)), expected \(seconds(y))" }
            } else if !same(have, want) {
                return "\(name) is \(have.serialized), expected \(want.serialized)"
            }
        }
        if let (key, have) = a.first(where: { key, _ in !e.contains { $0.0 == key } }) {
            return "\(JSONValue.string(key).serialized) is \(have.serialized), not expected"
        }
        return nil
    }

    /// Equal JSON values, objects compared whatever their fields' order.
    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)):
            return x.count == y.count && x.allSatisfy { key, v in y.contains { $0.0 == key && same(v, $0.1) } }
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default:
            return a == b
        }
    }
}

/// Where a replay's result first differs from an `ExpectedResult`: at what scene time, in what
/// (an event, a widget at the end, …) and how, with both sides as JSON.
public struct ResultDifference: Sendable, Equatable, CustomStringConvertible {
    /// Scene time (s) of the event or line, or of the end for the widgets.
    public var time: Double
    /// What differs is the state at the end (a widget's value, the final time).
    public var atEnd: Bool
    /// "event 15 (ruler value)", "widget \"ruler\"", "refused line 2".
    public var subject: String
    /// `"value" is 75.1, expected 75.2`, or "is not expected (…)".
    public var complaint: String
    public var result: JSONValue?
    public var expected: JSONValue?

    init(
        time: Double, atEnd: Bool = false, subject: String, complaint: String, result: JSONValue? = nil,
        expected: JSONValue? = nil
    ) {
        self.time = time; self.atEnd = atEnd; self.subject = subject; self.complaint = complaint
        self.result = result; self.expected = expected
    }

    /// `at 0.234 s, event 15 (ruler value): "value" is 75.1, expected 75.2` (or `at the end
    /// (3.65 s), widget "ruler": …`) and, under it, the result's and the expectation's JSON.
    public var description: String {
        var out = atEnd ? "at the end (\(seconds(time))), \(subject)" : "at \(seconds(time)), \(subject)"
        out += complaint.hasPrefix("is ") ? " \(complaint)" : ": \(complaint)"
        if let result { out += "\n  result:   \(result.serialized)" }
        if let expected { out += "\n  expected: \(expected.serialized)" }
        return out
    }
}

/// A time as people read it: to the nanosecond, as the expected files write times.
private func seconds(_ t: Double) -> String { "\(SVGRenderer.num(t, decimals: 9)) s" }

extension JSONValue {
    fileprivate var fields: [(String, JSONValue)]? { if case .object(let f) = self { f } else { nil } }
    fileprivate var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    fileprivate var number: Double? { if case .number(let v) = self { v } else { nil } }
    fileprivate var string: String? { if case .string(let s) = self { s } else { nil } }
    fileprivate var isObject: Bool { fields != nil }
    fileprivate subscript(key: String) -> JSONValue? { fields?.first { $0.0 == key }?.1 }
}
