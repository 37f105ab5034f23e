import ScrollCore

/// Readable, deterministic JSON: the top object one key per line, long arrays one item
/// per line, everything deeper on one line as `JSONValue` writes it.
enum PrettyJSON {
    static func render(_ value: JSONValue) -> String {
        guard case .object(let fields) = value, !fields.isEmpty else { return value.serialized }
        var out = "{\n"
        for (i, (key, v)) in fields.enumerated() {
            out += "  " + JSONValue.string(key).serialized + ": "
            if case .array(let items) = v, !items.isEmpty {
                out += "[\n" + items.map { "    " + $0.serialized }.joined(separator: ",\n") + "\n  ]"
            } else if case .object(let inner) = v, !inner.isEmpty {
                out +=
                    "{\n"
                    + inner.map { "    " + JSONValue.string($0.0).serialized + ": " + $0.1.serialized }
                    .joined(separator: ",\n") + "\n  }"
            } else {
                out += v.serialized
            }
            out += i == fields.count - 1 ? "\n" : ",\n"
        }
        return out + "}"
    }
}
