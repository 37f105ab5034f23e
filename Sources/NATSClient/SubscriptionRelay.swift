import CNATS
import Dispatch
import Glibc
import Synchronization

/// Hands one subscription's messages to its Swift handler on the subscription's own nats.c
/// thread. nats.c holds one retain of it from `subscribe` until the subscription's completion
/// callback, which nats.c calls once the handler has returned for the last time.
// @unchecked Sendable: `handler` is read and cleared only on the delivering thread (nats.c calls
// the completion callback on it, after the last message); the rest is atomic or Dispatch's.
final class SubscriptionRelay: @unchecked Sendable {
    /// Let go at completion: a handler that holds its own subscription (or connection) would
    /// otherwise keep both alive for good.
    private var handler: (@Sendable (NATSMessage) -> Void)?
    private let completed = DispatchGroup()
    /// The thread delivering this subscription's messages (0 before the first): an unsubscribe
    /// or close from inside the handler must not wait for the handler to return.
    private let deliveryThread = Atomic<UInt>(0)

    init(_ handler: @escaping @Sendable (NATSMessage) -> Void) {
        self.handler = handler
    }

    /// The pointer nats.c passes back: it owns one retain until the completion callback.
    func retainedForNATS() -> UnsafeMutableRawPointer {
        completed.enter()
        return Unmanaged.passRetained(self).toOpaque()
    }

    /// Takes back what `retainedForNATS` gave when nats.c refused the subscription.
    static func giveBack(_ closure: UnsafeMutableRawPointer) {
        let relay = Unmanaged<SubscriptionRelay>.fromOpaque(closure)
        relay.takeUnretainedValue().completed.leave()
        relay.release()
    }

    /// The message callback: `message` is the callback's to destroy.
    static let onMessage: natsMsgHandler = { _, _, message, closure in
        defer { natsMsg_Destroy(message) }
        guard let message else { return }
        let relay = Unmanaged<SubscriptionRelay>.fromOpaque(closure!).takeUnretainedValue()
        relay.deliveryThread.store(UInt(pthread_self()), ordering: .relaxed)
        relay.handler?(NATSMessage(message))
    }

    /// The completion callback: the last call, after which nats.c's retain is given back.
    static let onComplete: natsOnCompleteCB = { closure in
        let relay = Unmanaged<SubscriptionRelay>.fromOpaque(closure!)
        relay.takeUnretainedValue().handler = nil
        relay.takeUnretainedValue().completed.leave()
        relay.release()
    }

    /// Waits until the handler has returned for the last time, unless called from the handler
    /// itself. False if `timeout` passed first.
    @discardableResult
    func waitUntilComplete(timeout: Double) -> Bool {
        if deliveryThread.load(ordering: .relaxed) == UInt(pthread_self()) { return false }
        return completed.wait(timeout: .now() + timeout) == .success
    }

    /// Whether the completion callback has run.
    var isComplete: Bool { completed.wait(timeout: .now()) == .success }
}
