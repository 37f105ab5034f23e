/// A field that broke its rule. Each format names fields its own way (`pointer.x` on the
/// wire, `"x"` in a trace line); the rest of the sentence is the rule's.
public struct FieldError: Error, Sendable, Equatable {
    public enum Problem: Sendable, Equatable {
        /// `on`: the kind of line or message that needs it, when not every kind does.
        case missing(on: String?)
        /// The rule's expectation, with the string given when it was one.
        case invalid(String)
    }
    public var field: String
    public var problem: Problem

    public init(field: String, _ problem: Problem) { self.field = field; self.problem = problem }

    /// "<name> is required" or "<name> must be …".
    public func message(naming name: String) -> String {
        switch problem {
        case .missing(let on):
            return "\(name) is required"
                + (on.map { " on \("aeiou".contains($0.prefix(1)) ? "an" : "a") \($0) line" } ?? "")
        case .invalid(let expectation): return "\(name) must be \(expectation)"
        }
    }
}

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
            let given = (raw as? String).map { ", not \"\($0.prefix(40))\"" } ?? ""
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

/// Reads one JSON object of text, telling bad JSON and a non-object apart from a field's
/// error, for formats that word them differently.
public enum JSONObjectDecoder {
    public enum Failure: Error {
        case notJSON
        case notObject
        case field(FieldError)
        /// An error the type's own reading threw (e.g. an unknown message type).
        case other(any Error)
    }

    public static func decode<T>(from text: String, _ make: (JSONFields) throws -> T) throws(Failure) -> T {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw .notJSON
        }
        guard case .object(let fields) = json else { throw .notObject }
        do {
            return try make(JSONFields(fields))
        } catch let e as FieldError {
            throw .field(e)
        } catch {
            throw .other(error)
        }
    }
}
