extension WebSocketClient {
    /// A complete (reassembled) data message.
    public enum Message: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
    }
}
