extension NATSConnection {
    /// How a connection reconnects and notices a dead server. Reconnecting itself is always on:
    /// nats.c retries forever, including the first connect (a node may start before NATS).
    public struct Options: Equatable, Sendable {
        /// Seconds between two attempts on the same server (nats.c adds up to 0.1 s of jitter).
        public var reconnectWait: Double = 0.25
        /// Seconds one attempt to connect may take.
        public var connectTimeout: Double = 2
        /// Seconds between the client's pings, and how many may go unanswered: a server gone
        /// without closing the socket (a partition) is noticed after about their product.
        public var pingInterval: Double = 2
        public var maxPingsOut: Int = 2
        /// Bytes of publishes and requests nats.c keeps while not connected and sends once
        /// connected. 0 (the default): none; every call then fails at once with `.transient`, and
        /// nothing written during an outage lands later (a lease claim long after it was given up).
        public var reconnectBufferBytes: Int = 0
        /// Write each publish to the socket at once, on the caller's thread. false: nats.c's flusher
        /// thread writes them, after waiting 1 ms for more (throughput over latency: a relayed
        /// room's input crosses NATS twice, 2 ms more).
        public var sendAsap = false

        public init() {}
    }
}
