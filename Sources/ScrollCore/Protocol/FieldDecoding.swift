import Foundation

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

/// Any field name of a JSON object.
public struct FieldKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public init(_ name: String) { stringValue = name }
    public init(stringValue: String) { self.stringValue = stringValue }
    public var intValue: Int? { nil }
    public init?(intValue: Int) { nil }
}

public typealias FieldContainer = KeyedDecodingContainer<FieldKey>

extension KeyedDecodingContainer where Key == FieldKey {
    /// The field checked against `rule`; nil when absent or null. Unknown fields are never read.
    public func optional<Raw, Value>(_ name: String, _ rule: FieldRule<Raw, Value>) throws(FieldError) -> Value? {
        let raw: Raw?
        do {
            raw = try decodeIfPresent(Raw.self, forKey: FieldKey(name))
        } catch {
            // Wrong JSON type (a boolean for a number, …) or a number beyond a Double.
            throw FieldError(field: name, .invalid(rule.expectation))
        }
        guard let raw else { return nil }
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

/// Decodes one JSON object of text, telling bad JSON and a non-object apart from a field's
/// error, for formats that word them differently.
public enum JSONObjectDecoder {
    public enum Failure: Error {
        case notJSON
        case notObject
        case field(FieldError)
        /// An error the type's own decoding threw (e.g. an unknown message type).
        case other(any Error)
    }

    private struct NotAnObject: Error {}

    private static let decoder = JSONDecoder()

    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws(Failure) -> T {
        do {
            return try decoder.decode(T.self, from: Data(text.utf8))
        } catch let e as FieldError {
            throw .field(e)
        } catch is NotAnObject {
            throw .notObject
        } catch is DecodingError {
            // Fields convert their own decoding errors, so this is the text itself.
            throw .notJSON
        } catch {
            throw .other(error)
        }
    }

    /// The object's fields; a top level that is not an object is refused as such.
    public static func fields(_ decoder: any Decoder) throws -> FieldContainer {
        do {
            return try decoder.container(keyedBy: FieldKey.self)
        } catch {
            throw NotAnObject()
        }
    }
}
