import Foundation

/// WebDriver BiDi's serialized script values (`script.RemoteValue`) as the Foundation objects the
/// tests read: what CDP's `returnByValue` gives for the same value, so a test reads either alike.
enum RemoteValue {
    /// nil for undefined and null; numbers as NSNumber (NaN, ±Infinity and -0 as Double on their
    /// own; inside an array or object, as in JSON, NaN and ±Infinity are null and -0 is 0); arrays
    /// and sets as arrays; objects and maps with string keys as dictionaries, leaving out what is
    /// undefined; anything else (a node, a window, a function) as an empty dictionary.
    static func decode(_ remote: [String: Any]) -> Any? {
        if remote["type"] as? String == "number", let special = remote["value"] as? String {
            return Double(special) ?? special
        }
        return inside(remote)
    }

    /// A value inside an array or object, as JSON has it.
    private static func inside(_ remote: [String: Any]) -> Any? {
        let value = remote["value"]
        switch remote["type"] as? String {
        case "undefined", "null":
            return nil
        case "string", "boolean":
            return value
        case "number":
            guard let special = value as? String else { return value }
            return special == "-0" ? 0 : nil
        case "bigint":
            return (value as? String).flatMap { Int($0) } ?? value
        case "array", "set":
            return (value as? [[String: Any]] ?? []).map { inside($0) ?? NSNull() }
        case "object", "map":
            var object: [String: Any] = [:]
            for pair in value as? [Any] ?? [] {
                // A property that is undefined is left out, as JSON leaves it out.
                guard let pair = pair as? [Any], pair.count == 2, let item = pair[1] as? [String: Any],
                    item["type"] as? String != "undefined"
                else { continue }
                let key = pair[0] as? String ?? (pair[0] as? [String: Any]).flatMap { inside($0) }.map { "\($0)" }
                if let key { object[key] = inside(item) ?? NSNull() }
            }
            return object
        case "date", "regexp":
            return value
        default:
            return [String: Any]()
        }
    }
}
