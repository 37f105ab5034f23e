import ScrollCore

extension JSONValue {
    /// The value as `serialized` writes it, read back: numbers beyond a Double (±∞, what the
    /// parser makes of 1e999) are written as null. Everything else survives.
    public var asWritten: JSONValue {
        switch self {
        case .number(let v): v.isFinite ? self : .null
        case .array(let items): .array(items.map(\.asWritten))
        case .object(let fields): .object(fields.map { ($0.0, $0.1.asWritten) })
        case .null, .bool, .string: self
        }
    }
}

extension TraceEntry {
    /// The entry as its `jsonLine` reads back (only action arguments can hold a number the
    /// field rules did not check).
    public var asWritten: TraceEntry {
        var e = self
        e.args = args.mapValues(\.asWritten)
        return e
    }
}
