import CNATS
import Glibc
import Synchronization

/// A connection to NATS through nats.c: publish, subscribe, request. nats.c reconnects on its
/// own, forever, and the first connect too: a node may start before NATS does.
///
/// Blocking: `init`, `request`, `flush`, `close` and every `KeyValueBucket` call wait for the
/// server (up to their timeout), so they belong on a worker queue, never on a latency-critical
/// thread. `publish` only copies into nats.c's buffer (another thread writes it out).
///
/// While not connected every call fails at once with `.transient` (unless `Options` keeps a
/// reconnect buffer). A write that fails `.transient` may still have been applied: the answer,
/// not the request, may be what was lost.
///
/// Callbacks (events, subscription handlers) run on nats.c's threads; none runs after `close()`
/// has returned, unless `close()` was called from a callback or a handler outlasted its wait.
// @unchecked Sendable: nats.c's connection is thread-safe; the Swift state is behind `state`.
public final class NATSConnection: @unchecked Sendable {
    /// The `natsConnection*`; valid until deinit (after `close()` nats.c answers "closed").
    let pointer: OpaquePointer
    private let events: ConnectionEventRelay
    /// Whether nats.c keeps what is published while not connected (`Options.reconnectBufferBytes`).
    private let keepsWhileDisconnected: Bool
    private let state = Mutex(State())

    private struct State {
        var isClosed = false
        /// Subscriptions whose handler may still be called, for `close()` to wait on.
        var subscriptions: [ObjectIdentifier: SubscriptionRelay] = [:]
    }

    /// How long `close()` waits for the last callbacks (a handler that blocks longer is left).
    static let closeWait = 10.0

    /// Connects to `urls` (`nats://127.0.0.1:4222`; several for a cluster) as `name` (the server's
    /// name for this client). Returns once connected, or at once if no server answers yet: nats.c
    /// then keeps trying (calls fail `.transient` meanwhile), and `onEvent` gets `.connected`.
    ///
    /// - Parameter onEvent: Called on nats.c's callback thread (one for the whole process): keep it short.
    public init(
        urls: [String], name: String, options: Options = Options(),
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(NATSError) {
        var natsOptions: OpaquePointer?
        try check(natsOptions_Create(&natsOptions), "connect: options")
        defer { natsOptions_Destroy(natsOptions) }
        try Self.configure(natsOptions, urls: urls, name: name, options: options)
        let events = ConnectionEventRelay(onEvent)
        try events.install(on: natsOptions)
        var connection: OpaquePointer?
        let status = natsConnection_Connect(&connection, natsOptions)
        // On failure nats.c may still call the closed callback (it may not): the relay's retain
        // is left to it rather than risk giving it back twice.
        guard status == NATS_OK || status == NATS_NOT_YET_CONNECTED, let connection else {
            throw NATSError.from(status, operation: "connect to \(urls.joined(separator: ","))")
        }
        self.pointer = connection
        self.events = events
        self.keepsWhileDisconnected = options.reconnectBufferBytes > 0
    }

    private static func configure(
        _ natsOptions: OpaquePointer?, urls: [String], name: String, options: Options
    ) throws(NATSError) {
        guard !urls.isEmpty else { throw NATSError.invalidArgument("connect: no server URL") }
        var servers = urls.map { UnsafePointer(strdup($0)) }
        defer { for server in servers { free(UnsafeMutablePointer(mutating: server)) } }
        try check(natsOptions_SetServers(natsOptions, &servers, Int32(servers.count)), "connect: servers \(urls)")
        try check(natsOptions_SetName(natsOptions, name), "connect: name")
        try check(natsOptions_SetAllowReconnect(natsOptions, true), "connect: reconnect")
        try check(natsOptions_SetMaxReconnect(natsOptions, -1), "connect: reconnect forever")
        try check(natsOptions_SetReconnectWait(natsOptions, milliseconds(options.reconnectWait)), "connect: wait")
        try check(natsOptions_SetTimeout(natsOptions, milliseconds(options.connectTimeout)), "connect: timeout")
        try check(natsOptions_SetPingInterval(natsOptions, milliseconds(options.pingInterval)), "connect: pings")
        try check(natsOptions_SetMaxPingsOut(natsOptions, Int32(options.maxPingsOut)), "connect: pings out")
        // nats.c reads 0 as its default, 8 MiB; 1 byte keeps at most one message (`requireConnected`
        // refuses the others before they reach it).
        let buffer = Int32(max(1, options.reconnectBufferBytes))
        try check(natsOptions_SetReconnectBufSize(natsOptions, buffer), "connect: reconnect buffer")
        try check(natsOptions_SetSendAsap(natsOptions, options.sendAsap), "connect: send at once")
        // A request under way when the connection drops fails at once rather than at its timeout.
        try check(natsOptions_SetFailRequestsOnDisconnect(natsOptions, true), "connect: fail requests")
    }

    deinit {
        close()
        natsConnection_Destroy(pointer)
    }

    /// nats.c's state of the connection now.
    public var status: Status {
        switch natsConnection_Status(pointer) {
        case NATS_CONN_STATUS_CONNECTED: .connected
        case NATS_CONN_STATUS_CONNECTING: .connecting
        case NATS_CONN_STATUS_RECONNECTING: .reconnecting
        case NATS_CONN_STATUS_CLOSED: .closed
        case NATS_CONN_STATUS_DRAINING_SUBS, NATS_CONN_STATUS_DRAINING_PUBS: .draining
        default: .disconnected
        }
    }

    /// The URL of the server connected to now (in a cluster, any of them); nil while not connected.
    public var connectedURL: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard natsConnection_GetConnectedUrl(pointer, &buffer, buffer.count) == NATS_OK, buffer[0] != 0 else {
            return nil
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Throws `.transient` unless connected, when nothing is to be kept for later (the default).
    /// A closed connection passes: nats.c answers "closed" (`.failed`).
    func requireConnected(_ operation: @autoclosure () -> String) throws(NATSError) {
        guard !keepsWhileDisconnected else { return }
        let status = natsConnection_Status(pointer)
        guard status == NATS_CONN_STATUS_CONNECTED || status == NATS_CONN_STATUS_CLOSED else {
            throw .transient("\(operation()): not connected")
        }
    }

    /// Publishes `payload` on `subject` (a valid NATS subject: tokens without spaces). nats.c
    /// copies it into its outbound buffer and returns; another thread writes it out.
    public func publish(_ subject: String, _ payload: [UInt8]) throws(NATSError) {
        try requireConnected("publish to \(subject)")
        let status = payload.withUnsafeBytes {
            natsConnection_Publish(pointer, subject, $0.baseAddress, Int32($0.count))
        }
        guard status == NATS_OK else { throw NATSError.from(status, operation: "publish to \(subject)") }
    }

    /// Publishes the bytes at `payload` (valid for the call only: nats.c copies them).
    public func publish(_ subject: String, bytes payload: UnsafeRawBufferPointer) throws(NATSError) {
        try requireConnected("publish to \(subject)")
        let status = natsConnection_Publish(pointer, subject, payload.baseAddress, Int32(payload.count))
        guard status == NATS_OK else { throw NATSError.from(status, operation: "publish to \(subject)") }
    }

    /// Calls `handler` with each message on `subject` (wildcards `*` and `>` allowed), on a thread
    /// of this subscription's own, one message at a time, until `unsubscribe()` or `close()`.
    /// nats.c resubscribes after a reconnect.
    public func subscribe(
        _ subject: String, handler: @escaping @Sendable (NATSMessage) -> Void
    ) throws(NATSError) -> NATSSubscription {
        let relay = SubscriptionRelay(handler)
        // Under the lock, so that `close()` either sees this subscription or refuses it.
        return try state.withLock { state throws(NATSError) -> NATSSubscription in
            guard !state.isClosed else {
                throw NATSError.from(NATS_CONNECTION_CLOSED, operation: "subscribe to \(subject)")
            }
            let closure = relay.retainedForNATS()
            var subscription: OpaquePointer?
            var status = natsConnection_Subscribe(&subscription, pointer, subject, SubscriptionRelay.onMessage, closure)
            guard status == NATS_OK, let subscription else {
                let error = NATSError.from(status, operation: "subscribe to \(subject)")
                SubscriptionRelay.giveBack(closure)
                throw error
            }
            status = natsSubscription_SetOnCompleteCB(subscription, SubscriptionRelay.onComplete, closure)
            guard status == NATS_OK else {
                // Without a completion callback the relay cannot know its last message: it is kept.
                let error = NATSError.from(status, operation: "subscribe to \(subject)")
                natsSubscription_Unsubscribe(subscription)
                natsSubscription_Destroy(subscription)
                throw error
            }
            state.subscriptions[ObjectIdentifier(relay)] = relay
            return NATSSubscription(subscription, relay: relay, subject: subject) { [weak self] in
                _ = self?.state.withLock { $0.subscriptions.removeValue(forKey: ObjectIdentifier(relay)) }
            }
        }
    }

    /// Sends `payload` on `subject` and waits up to `timeout` seconds for the first reply.
    /// No subscriber: `.transient` at once (no responders); none in time: `.transient` (timeout).
    public func request(_ subject: String, _ payload: [UInt8], timeout: Double) throws(NATSError) -> NATSMessage {
        try requireConnected("request on \(subject)")
        var reply: OpaquePointer?
        let status = payload.withUnsafeBytes {
            natsConnection_Request(&reply, pointer, subject, $0.baseAddress, Int32($0.count), milliseconds(timeout))
        }
        guard status == NATS_OK, let reply else { throw NATSError.from(status, operation: "request on \(subject)") }
        defer { natsMsg_Destroy(reply) }
        return NATSMessage(reply)
    }

    /// Waits up to `timeout` seconds until the server has processed everything published so far.
    public func flush(timeout: Double) throws(NATSError) {
        try requireConnected("flush")
        try check(natsConnection_FlushTimeout(pointer, milliseconds(timeout)), "flush")
    }

    /// Closes the connection (sending what is buffered first) and waits until nats.c's last
    /// callbacks have returned: the subscriptions' handlers and the `.closed` event. Its threads
    /// are joined; nats.c's process-wide threads (timers, callbacks) stay. Safe to call again,
    /// and from any thread; called from a callback, it cannot wait for that callback.
    public func close() {
        let first = state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        if first { natsConnection_Close(pointer) }
        let subscriptions = state.withLock { Array($0.subscriptions.values) }
        for relay in subscriptions { relay.waitUntilComplete(timeout: Self.closeWait) }
        events.waitUntilClosed(timeout: Self.closeWait)
    }
}

/// Seconds as nats.c's milliseconds, at least 1 (0 means "no timeout" to some of its calls).
func milliseconds(_ seconds: Double) -> Int64 {
    max(1, Int64((seconds * 1000).rounded(.up)))
}
