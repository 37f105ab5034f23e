/// Which `Host` names a WebSocket upgrade may be addressed to (docs/PROTOCOL.md, "Handshake").
/// A DNS-rebinding page (evil.example resolved to this machine) sends `Host: evil.example` with a
/// matching `Origin`, which the origin rule alone would take as the server's own page: so the
/// host must be one of the server's own addresses or names. Ports are not compared.
public struct HostPolicy: Sendable {
    private let names: Set<String>
    private let allowsAny: Bool

    /// The loopback names are always the server's own.
    public static let loopback = ["localhost", "127.0.0.1", "[::1]"]

    /// `names`: host names or addresses (IPv6 with or without brackets), any case; `*` allows any.
    public init(names: [String]) {
        allowsAny = names.contains("*")
        self.names = Set((Self.loopback + names).compactMap { Self.normalized(host: $0) })
    }

    /// Whether `host` (a `Host` header: name or address, maybe with a port) is one of ours.
    public func allows(host: String?) -> Bool {
        if allowsAny { return true }
        guard let host, let name = Self.normalized(header: host) else { return false }
        return names.contains(name)
    }

    /// A `Host` header's name without its port, lower case; IPv6 in brackets.
    static func normalized(header: String) -> String? {
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return nil }
            return normalized(host: String(header[...close]))
        }
        return normalized(host: String(header.prefix { $0 != ":" }))
    }

    /// A bare host name or address, lower case; an IPv6 address (it has colons) in brackets.
    static func normalized(host: String) -> String? {
        let lower = host.lowercased()
        guard !lower.isEmpty, lower != "[]" else { return nil }
        if lower.hasPrefix("[") { return lower }
        return lower.contains(":") ? "[\(lower)]" : lower
    }
}
