import ScrollCore

/// One WebSocket connection. Lives on the libwebsockets service thread only.
final class ClientConnection {
    let id: UInt64
    let wsi: OpaquePointer
    var name: String { "c\(id)" }
    var room: Room?
    var theme = Theme.light
    var limiter: RateLimiter

    /// Control messages (welcome, errors) in order; small and bounded.
    var control: [String] = []
    /// Only the newest pong matters (round-trip measurement), so pongs replace each other.
    var pong: String?
    var droppedErrors = 0
    /// Event messages not yet sent, encoded once per room and shared by its clients;
    /// bounded by ServerConfig.maxQueuedEvents events in all.
    var events: [(json: [UInt8], count: Int)] = []
    var queuedEvents = 0
    var semanticsSent = 0
    /// Last frame sequence number sent (0: none yet).
    var frameSeq: UInt32 = 0
    /// Pointer ids currently down: bounded, so captures (and traces) cannot grow without end.
    var pointersDown: Set<Int> = []

    /// Reassembly of fragmented messages.
    var rx: [UInt8] = []
    var rxTooLarge = false
    /// Set when the connection must close once its control queue is flushed.
    var closeAfterFlush: (code: UInt16, reason: String)?

    static let maxControl = 32
    static let maxPointersDown = 10

    init(id: UInt64, wsi: OpaquePointer, limiter: RateLimiter) {
        self.id = id
        self.wsi = wsi
        self.limiter = limiter
    }
}
