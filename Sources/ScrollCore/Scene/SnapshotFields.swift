/// One widget's snapshot read field by field with the wire's rules; a field it does not know
/// is refused, so a snapshot from another version is not half understood.
public struct SnapshotFields {
    let owner: String
    let fields: [String: JSONValue]

    /// `owner` names it in refusals (a widget id).
    public init(_ json: JSONValue, of owner: String, fields known: Set<String>) throws(SnapshotError) {
        guard case .object(let pairs) = json else { throw SnapshotError("\(owner): must be an object") }
        self.owner = owner
        fields = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw SnapshotError("\(owner): unknown field \"\(unknown.excerpt(64))\"")
        }
    }

    public func required<Raw, Value>(_ name: String, _ rule: FieldRule<Raw, Value>) throws(SnapshotError) -> Value {
        guard let value = try optional(name, rule) else { throw SnapshotError("\(owner): \(name) is missing") }
        return value
    }

    /// nil when absent or null.
    public func optional<Raw, Value>(_ name: String, _ rule: FieldRule<Raw, Value>) throws(SnapshotError) -> Value? {
        guard let raw = fields[name], raw != .null else { return nil }
        guard let value = rule.validate(raw) else {
            throw SnapshotError("\(owner): \(name) must be \(rule.expectation)")
        }
        return value
    }
}
