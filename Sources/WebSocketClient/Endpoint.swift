import Foundation

/// The parts of a `ws://` or `http://` URL needed to open a connection and write a request.
struct Endpoint {
    let host: String
    let port: Int
    /// Path plus query, as written on the request line; never empty.
    let target: String
    /// Value of the `Host` header: brackets kept for IPv6, port omitted when it is the default.
    let hostHeader: String

    /// `schemes` maps each accepted scheme to its default port.
    init(_ url: String, schemes: [String: Int]) throws {
        guard let parts = URLComponents(string: url),
            let scheme = parts.scheme?.lowercased(), let defaultPort = schemes[scheme],
            let rawHost = parts.host, !rawHost.isEmpty
        else { throw WebSocketError.invalidURL(url) }
        let bare = rawHost.hasPrefix("[") ? String(rawHost.dropFirst().dropLast()) : rawHost
        host = bare
        port = parts.port ?? defaultPort
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        target = parts.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        let shownHost = bare.contains(":") ? "[\(bare)]" : bare
        hostHeader = port == defaultPort ? shownHost : "\(shownHost):\(port)"
    }
}
