/// Everything that can go wrong talking to a WebSocket (or plain HTTP) server.
public enum WebSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL could not be parsed or has an unsupported scheme.
    case invalidURL(String)
    /// No TCP connection could be made (refused, unreachable, unresolvable, or too slow).
    case connectFailed(host: String, port: Int, reason: String)
    /// The server answered the upgrade request with something other than `101`.
    case handshakeRejected(statusLine: String)
    /// The peer broke RFC 6455 (or sent malformed HTTP); the connection has been failed.
    case protocolViolation(String)
    /// The connection is closed. `code` is the peer's close code, 1005 if its close frame
    /// carried none, and 1006 if the connection ended without a close frame.
    case closed(code: UInt16, reason: String)
    /// A deadline passed while connecting, handshaking or writing.
    case timeout(String)
    /// A socket call failed after the connection was made.
    case io(String)

    public var description: String {
        switch self {
        case .invalidURL(let url):
            return "invalid URL: \(url)"
        case let .connectFailed(host, port, reason):
            return "could not connect to \(host):\(port): \(reason)"
        case .handshakeRejected(let statusLine):
            return "WebSocket handshake rejected: \(statusLine)"
        case .protocolViolation(let detail):
            return "protocol violation: \(detail)"
        case let .closed(code, reason):
            return reason.isEmpty ? "connection closed (code \(code))" : "connection closed (code \(code)): \(reason)"
        case .timeout(let what):
            return "timed out \(what)"
        case .io(let detail):
            return "socket error: \(detail)"
        }
    }
}
