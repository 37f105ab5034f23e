/// What one field may hold, and how to say so ("x must be <expectation>"). Client messages,
/// trace lines and action arguments all check their fields with these rules, so a limit is
/// stated once and the wire and the trace format cannot drift apart.
public struct FieldRule<Raw: FieldRaw, Value: Sendable>: Sendable {
    /// Completes "<field> must be …", e.g. "a finite number within ±1000000".
    public let expectation: String
    private let accept: @Sendable (Raw) -> Value?

    public init(_ expectation: String, accept: @escaping @Sendable (Raw) -> Value?) {
        self.expectation = expectation
        self.accept = accept
    }

    public func validate(_ raw: Raw) -> Value? { accept(raw) }

    /// For values already held as JSON (action arguments).
    public func validate(_ json: JSONValue) -> Value? { Raw(json: json).flatMap(accept) }
}

/// The JSON type a field is read as before its rule runs. Booleans are never numbers.
public protocol FieldRaw: Sendable {
    init?(json: JSONValue)
}

extension Double: FieldRaw {
    public init?(json: JSONValue) {
        guard case .number(let d) = json else { return nil }
        self = d
    }
}

extension String: FieldRaw {
    public init?(json: JSONValue) {
        guard case .string(let s) = json else { return nil }
        self = s
    }
}

extension Bool: FieldRaw {
    public init?(json: JSONValue) {
        guard case .bool(let b) = json else { return nil }
        self = b
    }
}

extension Array: FieldRaw where Element: FieldRaw {
    public init?(json: JSONValue) {
        guard case .array(let items) = json else { return nil }
        var out: [Element] = []
        for item in items {
            guard let e = Element(json: item) else { return nil }
            out.append(e)
        }
        self = out
    }
}

extension Dictionary: FieldRaw where Key == String, Value == JSONValue {
    public init?(json: JSONValue) {
        guard case .object(let fields) = json else { return nil }
        self = Dictionary(fields, uniquingKeysWith: { first, _ in first })
    }
}

extension JSONValue: FieldRaw {
    public init?(json: JSONValue) { self = json }
}

// MARK: - Rules

extension FieldRule where Raw == Double, Value == Double {
    public static func number(within limit: Double) -> Self {
        Self("a finite number within ±\(JSONValue.format(limit))") { $0.isFinite && abs($0) <= limit ? $0 : nil }
    }

    public static func number(in range: ClosedRange<Double>) -> Self {
        Self("a finite number within \(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))") {
            $0.isFinite && range.contains($0) ? $0 : nil
        }
    }

    /// A time in ms, ≥ 0 and at most `max` when given.
    public static func milliseconds(upTo max: Double? = nil) -> Self {
        let bound = max.map { "within 0…\(JSONValue.format($0))" } ?? "≥ 0"
        return Self("a finite number of milliseconds \(bound)") {
            $0.isFinite && $0 >= 0 && $0 <= (max ?? .infinity) ? $0 : nil
        }
    }
}

extension FieldRule where Raw == Double, Value == Int {
    public static func integer(in range: ClosedRange<Int>) -> Self {
        Self("an integer in \(range.lowerBound)…\(range.upperBound)") { d in
            d == d.rounded() && d >= Double(range.lowerBound) && d <= Double(range.upperBound) ? Int(d) : nil
        }
    }
}

extension FieldRule where Raw == String, Value == String {
    /// Bounded in characters and in bytes (`TextLength`).
    public static func string(length: ClosedRange<Int>) -> Self {
        let bound = TextLength(length)
        return Self("a string of \(bound)") { bound.admits($0) ? $0 : nil }
    }

    /// Room and scene names: safe in file names and URLs.
    public static var identifier: Self {
        Self(ClientMessageLimits.roomPattern) { name in
            (1...64).contains(name.utf8.count)
                && name.utf8.allSatisfy {
                    ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 || $0 == 45
                } ? name : nil
        }
    }
}

extension FieldRule where Raw == String {
    /// One of a fixed set of names, each standing for a value.
    public static func oneOf(_ choices: [(name: String, value: Value)]) -> Self {
        Self("one of \(choices.map(\.name).joined(separator: ", "))") { s in choices.first { $0.name == s }?.value }
    }
}

extension FieldRule where Raw == Bool, Value == Bool {
    public static var bool: Self { Self("true or false") { $0 } }
}
