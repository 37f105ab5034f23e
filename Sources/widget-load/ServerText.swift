/// The few fields the load generator reads from a server text message's first bytes: its
/// `type`, and `t` (applied, pong) or `code` (error). The server writes `type` first
/// (ScrollCore's ServerMessage), so a message cut short still tells what it is.
struct ServerText {
    let type: Substring
    private let text: String

    init(_ bytes: [UInt8]) {
        text = String(decoding: bytes, as: UTF8.self)
        type = Self.string(after: "{\"type\":\"", in: text[...]) ?? ""
    }

    /// Whether the message is of `type`, without decoding it.
    static func hasType(_ type: StaticString, _ bytes: [UInt8]) -> Bool {
        let prefix =
            Array("{\"type\":\"".utf8) + UnsafeBufferPointer(start: type.utf8Start, count: type.utf8CodeUnitCount)
        return bytes.starts(with: prefix)
    }

    var t: Double? {
        guard let start = text.range(of: "\"t\":")?.upperBound else { return nil }
        return Double(text[start...].prefix { $0 != "," && $0 != "}" })
    }

    var code: String? { Self.string(after: "\"code\":\"", in: text[...]).map(String.init) }

    /// An error's text for humans (up to its first escaped quote, which the server's messages lack).
    var message: String? { Self.string(after: "\"message\":\"", in: text[...]).map(String.init) }

    private static func string(after key: String, in text: Substring) -> Substring? {
        guard let start = text.range(of: key)?.upperBound else { return nil }
        return text[start...].prefix { $0 != "\"" }
    }
}
