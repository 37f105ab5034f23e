import CNATS
import Dispatch
import Glibc
import Synchronization

/// nats.c's one thread for connection callbacks (all connections of the process share it),
/// once it has delivered something: `close()` called on it must not wait for a callback that
/// this very thread would deliver next.
private let asyncCallbackThread = Atomic<UInt>(0)

/// Hands nats.c's connection callbacks (connected, disconnected, reconnected, closed, errors)
/// to the Swift closure. nats.c holds one retain of it from `connect` until the closed callback,
/// the last one, so no callback can outlive it.
// @unchecked Sendable: `handler` is read and cleared only on nats.c's one callback thread; the
// rest is atomic or Dispatch's.
final class ConnectionEventRelay: @unchecked Sendable {
    /// Let go after `.closed`: a handler that holds its connection would otherwise keep it alive.
    private var handler: (@Sendable (NATSConnection.Event) -> Void)?
    private let closed = DispatchGroup()

    init(_ handler: @escaping @Sendable (NATSConnection.Event) -> Void) {
        self.handler = handler
    }

    /// The pointer nats.c passes back to the callbacks: it owns one retain until `.closed`.
    func retainedForNATS() -> UnsafeMutableRawPointer {
        closed.enter()
        return Unmanaged.passRetained(self).toOpaque()
    }

    static func from(_ closure: UnsafeMutableRawPointer?) -> ConnectionEventRelay {
        Unmanaged<ConnectionEventRelay>.fromOpaque(closure!).takeUnretainedValue()
    }

    func deliver(_ event: NATSConnection.Event) {
        asyncCallbackThread.store(UInt(pthread_self()), ordering: .relaxed)
        handler?(event)
    }

    /// The closed callback: the last, after which nats.c's retain is given back.
    static func deliverClosed(_ closure: UnsafeMutableRawPointer?) {
        let relay = from(closure)
        relay.deliver(.closed)
        relay.handler = nil
        relay.closed.leave()
        Unmanaged<ConnectionEventRelay>.fromOpaque(closure!).release()
    }

    /// Waits until the closed callback has returned, unless called on nats.c's callback thread
    /// (a callback closing a connection: it would wait for itself). False if `timeout` passed.
    @discardableResult
    func waitUntilClosed(timeout: Double) -> Bool {
        if asyncCallbackThread.load(ordering: .relaxed) == UInt(pthread_self()) { return false }
        return closed.wait(timeout: .now() + timeout) == .success
    }

    /// Sets every connection callback of `options` to this relay.
    func install(on options: OpaquePointer?) throws(NATSError) {
        let closure = retainedForNATS()
        var installed = false
        defer {
            if !installed {
                closed.leave()
                Unmanaged<ConnectionEventRelay>.fromOpaque(closure).release()
            }
        }
        try check(
            natsOptions_SetRetryOnFailedConnect(
                options, true, { _, closure in ConnectionEventRelay.from(closure).deliver(.connected) }, closure),
            "connect: retry on failed connect")
        try check(
            natsOptions_SetDisconnectedCB(
                options, { _, closure in ConnectionEventRelay.from(closure).deliver(.disconnected) }, closure),
            "connect: disconnected callback")
        try check(
            natsOptions_SetReconnectedCB(
                options, { _, closure in ConnectionEventRelay.from(closure).deliver(.reconnected) }, closure),
            "connect: reconnected callback")
        try check(
            natsOptions_SetErrorHandler(
                options,
                { _, subscription, status, closure in
                    let subject = subscription.flatMap { natsSubscription_GetSubject($0) }.map { String(cString: $0) }
                    let error = NATSError.from(
                        status, operation: subject.map { "subscription to \($0)" } ?? "connection", usesLastError: false
                    )
                    ConnectionEventRelay.from(closure).deliver(.error(error))
                }, closure),
            "connect: error handler")
        try check(
            natsOptions_SetClosedCB(options, { _, closure in ConnectionEventRelay.deliverClosed(closure) }, closure),
            "connect: closed callback")
        installed = true
    }
}
