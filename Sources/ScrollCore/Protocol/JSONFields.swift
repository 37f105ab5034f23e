/// The fields of one JSON object, read through rules. Unknown fields are never read; a field
/// given twice counts once, the first time.
public struct JSONFields: Sendable {
    public let fields: [(String, JSONValue)]

    public init(_ fields: [(String, JSONValue)]) { self.fields = fields }

    /// The field checked against `rule`; nil when absent or null.
    public func optional<Raw, Value>(_ name: String, _ rule: FieldRule<Raw, Value>) throws(FieldError) -> Value? {
        guard let json = fields.first(where: { $0.0 == name })?.1, json != .null else { return nil }
        // Wrong JSON type (a boolean for a number, …).
        guard let raw = Raw(json: json) else { throw FieldError(field: name, .invalid(rule.expectation)) }
        guard let value = rule.validate(raw) else {
            let given = (raw as? String).map { ", not \"\($0.excerpt(40))\"" } ?? ""
            throw FieldError(field: name, .invalid(rule.expectation + given))
        }
        return value
    }

    /// As `optional`, but absence is an error; `on` names the kind that needs the field.
    public func required<Raw, Value>(
        _ name: String, _ rule: FieldRule<Raw, Value>,
        on kind: String? = nil
    ) throws(FieldError) -> Value {
        guard let value = try optional(name, rule) else { throw FieldError(field: name, .missing(on: kind)) }
        return value
    }
}
