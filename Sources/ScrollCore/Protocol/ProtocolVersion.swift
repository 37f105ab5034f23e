/// The wire protocol version (docs/PROTOCOL.md). Bump on any incompatible change.
public enum ProtocolVersion {
    public static let current = 1
    /// The WebSocket subprotocol the page requests.
    public static let subprotocol = "scroll-widgets"
}
