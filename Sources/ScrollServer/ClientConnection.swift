import ScrollCore

/// One WebSocket connection. Lives on the libwebsockets service thread only.
final class ClientConnection {
    let id: UInt64
    let wsi: OpaquePointer
    var name: String { "c\(id)" }
    var room: Room?
    var theme = Theme.light
    var limiter: RateLimiter
    /// Everything waiting to be sent, and what comes next (OutboundQueue).
    var outbound: OutboundQueue
    /// Pointer ids currently down: bounded, so captures (and traces) cannot grow without end.
    var pointersDown: Set<Int> = []

    /// Reassembly of fragmented messages.
    var rx: [UInt8] = []

    static let maxPointersDown = 10

    init(id: UInt64, wsi: OpaquePointer, limiter: RateLimiter, outbound: OutboundQueue) {
        self.id = id
        self.wsi = wsi
        self.limiter = limiter
        self.outbound = outbound
    }
}
