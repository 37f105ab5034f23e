/// Everything the server can be told; defaults are the product's.
public struct ServerConfig: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var publicDirectory: String
    /// Frame clock while anything moves (Hz): 60 by default; the CLI accepts 1…240.
    public var tickRate = 60.0
    /// Input messages per second a client may send (burst: twice that).
    public var messagesPerSecond = 1000.0
    /// When a client that stopped reading is disconnected (`slow_consumer`).
    package var slowReader = SlowReaderRule()
    public var maxRooms = 256
    public var maxClients = 4096
    /// Connections that have not sent `hello` yet, at once (each has 10 s to send it).
    public var maxUnjoinedClients = 256
    /// A connection accepted on a descriptor numbered at or above this is closed at once and
    /// accepting pauses (`DescriptorBudget.socketCeiling`); nil: no ceiling.
    public var socketCeiling: Int?
    /// With a store: most rooms kept in it, in memory or not (docs/STATE.md).
    public var maxStoredRooms = 4096
    /// Directory for per-room input traces; nil: no recording.
    public var recordDirectory: String?
    /// Web origins besides the server's own whose pages may open a WebSocket (`*`: any);
    /// see `OriginPolicy`.
    public var allowedOrigins: [String] = []
    /// Host names (or addresses) besides the loopback ones that WebSocket upgrades may be addressed
    /// to (`--server-name`, the bound address, the hosts of `allowedOrigins`; `*`: any); see
    /// `HostPolicy`. `serverNames` puts them together.
    public var extraServerNames: [String] = []
    /// `/metrics` (with `/healthz` and `/readyz`) on a listener of its own at `metricsHost`, port
    /// `metricsPort` (0: a free one); nil: on the public port.
    public var metricsPort: Int?
    public var metricsHost = "127.0.0.1"
    /// On stop, how long clients are given to answer the server's close (1001) before the
    /// process exits anyway (s).
    public var shutdownGrace = 1.0

    public init(publicDirectory: String) { self.publicDirectory = publicDirectory }

    /// Every name a WebSocket upgrade's `Host` may give: the extra names, the address listened on
    /// (every interface's for `0.0.0.0` or `::`), and the hosts of the allowed origins.
    public var serverNames: [String] {
        let listened = ["0.0.0.0", "::", "[::]", ""].contains(host) ? LocalAddresses.all() : [host]
        // `scheme://host[:port]` → `host`; `*` stays `*` (any origin, so any host).
        let originHosts = allowedOrigins.compactMap { origin in
            origin == "*" ? "*" : OriginPolicy.normalized(origin)?.split(separator: "/").last.map(String.init)
        }
        return extraServerNames + listened
            + originHosts.map { $0 == "*" ? $0 : HostPolicy.normalized(header: $0) ?? "" }
    }
}
