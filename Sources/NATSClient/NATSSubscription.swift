import CNATS
import Synchronization

/// A subscription from `NATSConnection.subscribe`: its handler runs until `unsubscribe()`, the
/// connection's `close()`, or this object's end.
// @unchecked Sendable: nats.c's subscription is thread-safe; `unsubscribed` guards the rest.
public final class NATSSubscription: @unchecked Sendable {
    public let subject: String
    private let pointer: OpaquePointer
    private let relay: SubscriptionRelay
    private let unsubscribed = Atomic(false)
    private let onUnsubscribe: @Sendable () -> Void

    init(
        _ pointer: OpaquePointer, relay: SubscriptionRelay, subject: String,
        onUnsubscribe: @escaping @Sendable () -> Void
    ) {
        self.pointer = pointer
        self.relay = relay
        self.subject = subject
        self.onUnsubscribe = onUnsubscribe
    }

    deinit {
        unsubscribe()
        natsSubscription_Destroy(pointer)
    }

    /// Stops the messages and waits until the handler has returned for the last time (unless
    /// called from the handler itself). Safe to call again, and after the connection's `close()`.
    public func unsubscribe() {
        if !unsubscribed.exchange(true, ordering: .relaxed) {
            // After `close()` nats.c has already ended it and answers "closed": nothing to report.
            natsSubscription_Unsubscribe(pointer)
            onUnsubscribe()
        }
        relay.waitUntilComplete(timeout: NATSConnection.closeWait)
    }

    /// Whether nats.c has made its last call of the handler.
    public var isComplete: Bool { relay.isComplete }
}
