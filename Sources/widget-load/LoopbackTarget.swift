/// Where the load goes: a ws:// URL on the loopback address, nothing else (every load run
/// stays on this machine; docs/BENCHMARKS.md).
struct LoopbackTarget: Equatable {
    /// "127.0.0.1" or "::1", as the socket layer wants it.
    let address: String
    let port: Int
    let path: String

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    init(address: String, port: Int, path: String = "/") {
        self.address = address
        self.port = port
        self.path = path
    }

    /// Accepts `ws://127.0.0.1:PORT/…` and `ws://[::1]:PORT/…` only.
    init(url: String) throws {
        guard url.hasPrefix("ws://") else { throw Refused(description: "\(url): only ws:// URLs are supported") }
        let rest = url.dropFirst("ws://".count)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        let host: Substring, portText: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Refused(description: "\(url): unclosed [") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            portText = authority[close...].dropFirst().drop { $0 == ":" }
        } else {
            host = authority.prefix { $0 != ":" }
            portText = authority.dropFirst(host.count + 1)
        }
        guard host == "127.0.0.1" || host == "::1" else {
            throw Refused(
                description:
                    "widget-load only loads the loopback address (127.0.0.1 or ::1), not \"\(host)\": load runs stay on this machine"
            )
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw Refused(description: "\(url): the URL needs a port (1…65535)")
        }
        address = String(host)
        self.port = port
    }

    /// The Host header and the page's Origin, as a browser on the served page sends them.
    var hostHeader: String { address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)" }
    var origin: String { "http://\(hostHeader)" }
}
