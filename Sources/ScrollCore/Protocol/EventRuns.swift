extension ServerMessage {
    /// Events sent ahead as runs (docs/PROTOCOL.md, "Events ahead"): the events of one widget and
    /// type with the same fields, in order, as one object. Its times are `t0` (the first, in
    /// seconds to the microsecond) and `dt` (the gaps after it, in milliseconds to the
    /// microsecond), or `times`: the index of an earlier run at the same times; every other field
    /// is one value when it is the same for all, else an array of one value per event, except a
    /// `text` that is each `value` written alike (`RunTextFormat`) and a column of numbers steadily
    /// apart, which goes in `steps` as its first and its step.
    /// A glide's reports cost their numbers, not their names.
    static func runs(_ events: [SceneEvent]) -> [JSONValue] {
        var order: [String] = []
        var groups: [String: (times: [Double], rows: [[(String, JSONValue)]])] = [:]
        for event in events {
            guard case .object(let json) = event.json else { continue }
            let fields = json.filter { $0.0 != "t" }
            // A run's key: widget, type and the field names (a haptic with `count` is another run).
            let key = ([event.widget, event.kind.name.rawValue] + fields.map(\.0)).joined(separator: "\u{0}")
            if groups[key] == nil { order.append(key) }
            groups[key, default: ([], [])].times.append(event.time)
            groups[key]?.rows.append(fields)
        }
        // Runs at the same times (a picker's ticks and their clicks) name the first's.
        var sent: [[Double]] = []
        return order.compactMap { key -> JSONValue? in
            guard let (times, rows) = groups[key], let first = rows.first else { return nil }
            let columns = first.indices.map { i in rows.map { $0[i].1 } }
            let values = first.firstIndex { $0.0 == "value" }.map { columns[$0] }
            let micros = times.map { ($0 * 1e6).rounded() }
            var fields =
                sent.firstIndex(of: micros).map { [("times", JSONValue.number(Double($0)))] } ?? runTimes(times)
            sent.append(micros)
            var steps: [(String, JSONValue)] = []
            for (i, (name, value)) in first.enumerated() {
                let column = columns[i]
                if column.allSatisfy({ $0 == value }) {
                    fields.append((name, value))
                } else if name == "text", let values, let format = RunTextFormat(values: values, texts: column) {
                    fields.append((name, format.json))
                } else if let step = arithmetic(column) {
                    steps.append((name, .array([.number(step.from), .number(step.by)])))
                } else {
                    fields.append((name, .array(column)))
                }
            }
            if !steps.isEmpty { fields.append(("steps", .object(steps))) }
            return .object(fields)
        }
    }

    /// A column of three or more numbers that is `from + i·by` exactly (in float64, as the page
    /// works it out): a picker's ticks 17, 18, 19, …
    static func arithmetic(_ column: [JSONValue]) -> (from: Double, by: Double)? {
        guard column.count >= 3, case .number(let from) = column[0], case .number(let second) = column[1] else {
            return nil
        }
        let by = second - from
        for (i, v) in column.enumerated() {
            guard case .number(let x) = v, x == from + Double(i) * by else { return nil }
        }
        return (from, by)
    }

    /// `t0` and `dt` of a run's times: the gaps between the times rounded to the microsecond, so
    /// a page that adds them up in whole microseconds lands on those times exactly. Three or more
    /// equal gaps in a row go as `[gap, count]` (a glide's reports one a frame tick, 16 ms apart).
    static func runTimes(_ times: [Double]) -> [(String, JSONValue)] {
        let micros = times.map { ($0 * 1e6).rounded() }
        let gaps = zip(micros.dropFirst(), micros).map { ($0 - $1) / 1000 }
        var dt: [JSONValue] = []
        var i = 0
        while i < gaps.count {
            var n = 1
            while i + n < gaps.count, gaps[i + n] == gaps[i] { n += 1 }
            if n >= runOfGaps {
                dt.append(.array([.number(gaps[i]), .number(Double(n))]))
            } else {
                dt += Array(repeating: .number(gaps[i]), count: n)
            }
            i += n
        }
        return [("t0", .number((micros.first ?? 0) / 1e6)), ("dt", .array(dt))]
    }

    /// Equal gaps in a row that go as one `[gap, count]`: from three on it is shorter.
    static let runOfGaps = 3
}

/// A run's texts as its values written by JavaScript's `toFixed(fixed)` between a prefix and a
/// suffix ("74.2 kg": 1, "", " kg"), sent as `{"fixed", "prefix", "suffix"}` in place of the
/// texts (docs/PROTOCOL.md, "Events ahead"). Only when every text is so, byte for byte, and
/// `JSFixed` is sure of every value: the page must rebuild the very texts.
public struct RunTextFormat: Sendable, Equatable {
    public var fixed: Int
    public var prefix: String
    public var suffix: String

    public init(fixed: Int, prefix: String = "", suffix: String = "") {
        self.fixed = fixed
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The format that writes every text from its value (the fewest decimals that does), or nil.
    init?(values: [JSONValue], texts: [JSONValue]) {
        var pairs: [(Double, String)] = []
        for (value, text) in zip(values, texts) {
            guard case .number(let v) = value, case .string(let s) = text else { return nil }
            pairs.append((v, s))
        }
        guard let (v0, s0) = pairs.first, values.count == texts.count else { return nil }
        let first = Array(s0.utf8)
        for decimals in 0...JSFixed.maxDecimals {
            guard let written = JSFixed.string(v0, decimals: decimals) else { continue }
            let digits = Array(written.utf8)
            // Each place the first value's digits stand in its text (ASCII: never inside a character's bytes).
            for at in stride(from: 0, through: first.count - digits.count, by: 1)
            where first[at..<at + digits.count].elementsEqual(digits) {
                let format = RunTextFormat(
                    fixed: decimals, prefix: String(decoding: first[..<at], as: UTF8.self),
                    suffix: String(decoding: first[(at + digits.count)...], as: UTF8.self))
                if pairs.allSatisfy({ v, s in format.text(v)?.utf8.elementsEqual(s.utf8) == true }) {
                    self = format
                    return
                }
            }
        }
        return nil
    }

    /// `value`'s text, as the page writes it; nil when `JSFixed` is not sure of it.
    public func text(_ value: Double) -> String? {
        JSFixed.string(value, decimals: fixed).map { prefix + $0 + suffix }
    }

    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("fixed", .number(Double(fixed)))]
        if !prefix.isEmpty { fields.append(("prefix", .string(prefix))) }
        if !suffix.isEmpty { fields.append(("suffix", .string(suffix))) }
        return .object(fields)
    }
}
