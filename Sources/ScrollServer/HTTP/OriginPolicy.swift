/// Which web pages may open a WebSocket (docs/PROTOCOL.md, "Handshake"). A browser always
/// says which page it comes from (`Origin`), so a page on another site cannot drive a room in
/// a visitor's name (cross-site WebSocket hijacking) unless `--allow-origin` names it.
/// A request without `Origin` comes from no browser and is let in, as Gorilla WebSocket does.
public struct OriginPolicy: Sendable {
    private let allowed: Set<String>
    private let allowsAny: Bool

    /// `origins`: each `*` or `scheme://host[:port]` (see `normalized`); invalid ones are
    /// ignored here (the CLI refuses them first, with `OriginPolicy.problem`).
    public init(allowing origins: [String]) {
        allowsAny = origins.contains("*")
        allowed = Set(origins.compactMap(Self.normalized))
    }

    /// Whether an upgrade with these `Origin` and `Host` headers may proceed: no origin; the
    /// server's own (`http://` + the Host the request was sent to); or an allowed one.
    public func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        if allowsAny { return true }
        guard let origin = Self.normalized(origin) else { return false }
        if let host, let own = Self.normalized("http://" + host), own == origin { return true }
        return allowed.contains(origin)
    }

    /// Why `value` cannot be given to `--allow-origin`; nil if it can.
    public static func problem(_ value: String) -> String? {
        value == "*" || normalized(value) != nil
            ? nil
            : "\"\(value)\" is not an origin: give scheme://host[:port] (e.g. https://example.com, no path) or *"
    }

    /// `scheme://host[:port]` in lower case, the scheme's default port left out (http 80,
    /// https 443), so equal origins compare equal; nil if `text` is not an origin (a path,
    /// user info, a bad port, `null`).
    static func normalized(_ text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        var rest = Substring(text[separator.upperBound...].lowercased())
        var host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
            rest = rest[rest.index(after: close)...]
        } else {
            host = rest.prefix { $0 != ":" }
            rest = rest[host.endIndex...]
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) })
            else { return nil }
        }
        guard !host.isEmpty, host != "[]" else { return nil }
        var port: Int?
        if !rest.isEmpty {
            guard rest.first == ":", rest.count >= 2, rest.count <= 6,
                rest.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(rest.dropFirst()),
                number <= 65535
            else { return nil }
            port = number
        }
        let defaultPort = ["http": 80, "https": 443, "ws": 80, "wss": 443][scheme]
        if let port, port != defaultPort { return "\(scheme)://\(host):\(port)" }
        return "\(scheme)://\(host)"
    }
}
