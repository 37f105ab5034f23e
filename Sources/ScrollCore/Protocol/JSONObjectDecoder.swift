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
