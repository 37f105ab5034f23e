/// The rules the hostile soak holds the server to, as docs/PROTOCOL.md ("Errors", `events`) and
/// docs/RELIABILITY.md state them: the soak checks the server against the documents, so the
/// numbers are written here rather than read from the server's code.
enum HostileRules {
    /// Messages a client may send at once; after that, 1000 a second.
    static let messageBurst = 2000
    static let messagesPerSecond = 1000.0
    /// Ticks one picker wheel crosses from end to end (ticks 0…100).
    static let pickerCrossings = 100
    /// A client that took nothing for this long while events waited is closed `slow_consumer`.
    static let stallTimeout = 10.0
    /// A connection must send `hello` within this long (`not_ready`, 1008).
    static let helloTimeout = 10.0
    /// Connections waiting to send `hello` at once; the next is refused `server_full` (1013).
    static let maxUnjoined = 256
    /// New rooms one address may make at once, then one a second (`rate_limited`, 1013).
    static let roomBurst = 120
    static let roomsPerSecond = 1.0
    /// libwebsockets 4.1.6 closes a connection whose HTTP headers are not complete this long
    /// after the accept (`timeout_secs_ah_idle`, default 10; `PENDING_TIMEOUT_HOLDING_AH`).
    static let headerTimeout = 10.0
    /// It closes an HTTP/1.1 connection idle this long after its answer (`keepalive_timeout`).
    static let keepAliveTimeout = 5.0
    /// It pings a WebSocket quiet for 20 s and hangs up 40 s after the last sign of life (the
    /// server's retry policy, CLibWebSockets/shim.h): a client that never reads again is let go.
    static let pongTimeout = 40.0
    /// How much later than its rule a close may come on a loaded machine.
    static let slack = 10.0
}
