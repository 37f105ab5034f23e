extension NATSConnection {
    /// What happened to the connection, reported on nats.c's callback thread.
    public enum Event: Equatable, Sendable {
        /// The first connection, when it came after `init` returned (NATS was not up yet).
        case connected
        /// The connection was lost; nats.c is reconnecting (or `close()` ended it: `.closed` follows).
        case disconnected
        /// Connected again (subscriptions are restored by nats.c).
        case reconnected
        /// Closed by `close()`: the last event.
        case closed
        /// An error outside any call, such as a slow subscriber whose messages were dropped.
        case error(NATSError)
    }

    /// The connection's state now (nats.c's).
    public enum Status: Equatable, Sendable {
        case connecting, connected, reconnecting, disconnected, draining, closed
    }
}
