import CLibWebSockets
import Logging
import ScrollCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The libwebsockets bridge: one context, one service thread, lws callback dispatch and lws
/// calls only. What a client's messages mean and what it is owed is the `Switchboard`'s.
/// Every method except `stop()` runs on the service thread (lws calls are not thread-safe;
/// `lws_cancel_service` is). Protocol 0 (HTTP: the page, upgrade checks) is `HTTPEdge`.
public final class WebSocketServer: @unchecked Sendable {
    public let config: ServerConfig
    let logger: Logger
    /// Protocol 0: the page and the upgrade checks.
    let http: HTTPEdge
    let board: Switchboard

    private var context: OpaquePointer?
    /// What lws keeps pointers into (protocol table, names): freed after the context.
    private var contextMemory: UnsafeMutablePointer<rs_context_memory>?
    private var tickTimer: UnsafeMutablePointer<rs_timer>?
    private var sweepTimer: UnsafeMutablePointer<rs_timer>?
    private var leaseTimer: UnsafeMutablePointer<rs_timer>?
    /// The cluster store's answers, from its worker thread to the service thread.
    private let answers = PThreadLocked<[ClusterAnswer]>([])
    /// Wakes the service loop at the end of the shutdown grace (lws_service waits for events).
    private var wakeTimer: UnsafeMutablePointer<rs_timer>?
    private let stopping = Atomic<Bool>(false)
    private let contextBox = PThreadLocked<ContextHandle?>(nil)

    private struct Connection {
        let wsi: OpaquePointer
        /// Reassembly of a fragmented message.
        var rx: [UInt8] = []
    }
    private var connections: [UInt64: Connection] = [:]
    private var nextClientID: UInt64 = 1

    /// `cluster`: a cluster node (`--cluster`): rooms are served here once this node owns them,
    /// their state kept in the cluster's store instead of `store`.
    public init(
        config: ServerConfig, logger: Logger, scenes: SceneCatalog = .standard, store: RoomStore? = nil,
        cluster: ClusterNode? = nil
    ) throws {
        self.config = config
        self.logger = logger
        let membership = cluster.map {
            ClusterMembership(node: $0.config.node, link: $0.link, timing: $0.config.timing)
        }
        board = try Switchboard(config: config, logger: logger, scenes: scenes, store: store, cluster: membership)
        http = try HTTPEdge(config: config, logger: logger, status: board)
        board.wire = self
        cluster?.link.answered = { [answers, contextBox] answer in
            answers.withLock { $0.append(answer) }
            contextBox.withLock { handle in if let handle { lws_cancel_service(handle.pointer) } }
        }
    }

    /// lws allocates this much per connection at the handshake. Messages are small (a pointer move
    /// is ~100 B); a longer one (up to `ClientMessageLimits.maxBytes`) arrives in pieces that
    /// `receive` joins.
    static let receiveBufferSize = 4096

    /// The operations listener's port once started (`--metrics-port`); nil: none.
    public private(set) var metricsPort: Int?

    /// Binds the port (and the operations listener's) and returns it (useful with port 0). Call
    /// `run()` next.
    public func start() throws -> Int {
        LWSLogging.route(to: logger)
        board.restoreRooms()
        let ctx = rs_create_context(
            config.host, Int32(config.port), ProtocolVersion.subprotocol, httpCallback, wsCallback,
            Self.receiveBufferSize, Unmanaged.passUnretained(self).toOpaque(), &contextMemory)
        guard let ctx else {
            throw ServerStartError(
                description: "could not listen on \(config.host):\(config.port) (port in use or not permitted?)")
        }
        if let port = config.metricsPort {
            let bound = rs_add_operations_vhost(ctx, contextMemory, config.metricsHost, Int32(port), httpCallback)
            guard bound > 0 else {
                lws_context_destroy(ctx)
                rs_context_memory_free(contextMemory)
                contextMemory = nil
                throw ServerStartError(
                    description: "could not listen on \(config.metricsHost):\(port) for --metrics-port (in use?)")
            }
            metricsPort = Int(bound)
        }
        context = ctx
        contextBox.withLock { $0 = ContextHandle(pointer: ctx) }
        tickTimer = rs_timer_new(Unmanaged.passUnretained(self).toOpaque())
        sweepTimer = rs_timer_new(Unmanaged.passUnretained(self).toOpaque())
        leaseTimer = rs_timer_new(Unmanaged.passUnretained(self).toOpaque())
        wakeTimer = rs_timer_new(nil)
        http.accepts.attach(ctx)
        return Int(rs_listen_port(ctx))
    }

    /// Services the context until `stop()`, then closes every connection (1001, within
    /// `config.shutdownGrace`), destroys the context, stores the rooms' state and returns.
    public func run() {
        guard let context else { return }
        while !stopping.load(ordering: .acquiring) {
            if lws_service(context, 0) < 0 { break }
            http.accepts.checkFailedAccept()
        }
        shutDown(context)
        for case let t? in [tickTimer, sweepTimer, leaseTimer, wakeTimer] { rs_timer_cancel(t); free(t) }
        (tickTimer, sweepTimer, leaseTimer, wakeTimer) = (nil, nil, nil, nil)
        http.accepts.detach()
        contextBox.withLock { $0 = nil }
        lws_context_destroy(context)
        self.context = nil
        rs_context_memory_free(contextMemory)
        contextMemory = nil
        board.finish()
        logger.info("stopped")
    }

    /// Services the context until every client answered the close or the grace passed: a stop
    /// takes at most that long, not a TCP reset.
    private func shutDown(_ context: OpaquePointer) {
        let open = board.goAway()
        let deadline = MonotonicClock.now() + config.shutdownGrace
        if let wakeTimer { rs_timer_schedule(context, wakeTimer, wakeCallback, Int64(config.shutdownGrace * 1e6)) }
        // A cluster node also waits for its leases to be let go (its rooms' last state written).
        while (!connections.isEmpty || !board.leasesReleased) && MonotonicClock.now() < deadline {
            if lws_service(context, 0) < 0 { break }
        }
        logger.info("shut down", metadata: ["clients": "\(open)", "unanswered": "\(connections.count)"])
    }

    /// Safe from any thread (signal handlers).
    public func stop() {
        stopping.store(true, ordering: .releasing)
        contextBox.withLock { handle in if let handle { lws_cancel_service(handle.pointer) } }
    }

    // MARK: callback dispatch

    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ len: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_ESTABLISHED:
            guard let user else { return -1 }
            let id = nextClientID
            nextClientID += 1
            rs_session_id(user).pointee = id
            connections[id] = Connection(wsi: wsi)
            var peer = [CChar](repeating: 0, count: 64)
            board.connected(id, address: lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? "")
        case LWS_CALLBACK_RECEIVE:
            guard let id = clientID(user) else { return -1 }
            receive(id, input, len)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let id = clientID(user) else { return -1 }
            return write(id)
        case LWS_CALLBACK_CLOSED:
            guard let id = clientID(user) else { return 0 }
            connections[id] = nil
            board.closed(id)
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // Sent to every protocol of every vhost: the first one takes what is waiting.
            for answer in answers.withLock({ queued in
                defer { queued = [] }; return queued
            }) {
                board.clusterAnswered(answer)
            }
        default:
            break
        }
        return 0
    }

    private func clientID(_ user: UnsafeMutableRawPointer?) -> UInt64? {
        guard let user else { return nil }
        let id = rs_session_id(user).pointee
        return connections[id] == nil ? nil : id
    }

    private func receive(_ id: UInt64, _ input: UnsafeMutableRawPointer?, _ len: Int) {
        guard !board.isClosing(id), let wsi = connections[id]?.wsi else { return }
        if lws_is_first_fragment(wsi) != 0 { connections[id]!.rx.removeAll(keepingCapacity: true) }
        if connections[id]!.rx.count + len > ClientMessageLimits.maxBytes {
            // Refused as soon as it is too large, not once the rest has been read (closes 1009).
            connections[id]!.rx = []
            let limit = ClientMessageLimits.maxBytes
            board.refused(id, ProtocolError(.tooLarge, "a message may be at most \(limit) bytes"), fatal: true)
            return
        }
        if let input, len > 0 {
            connections[id]!.rx.append(contentsOf: UnsafeRawBufferPointer(start: input, count: len))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return }
        let message = connections[id]!.rx
        connections[id]!.rx.removeAll(keepingCapacity: message.capacity <= 4096)
        if lws_frame_is_binary(wsi) != 0 {
            let refusal = ProtocolError(.unsupported, "binary messages are not accepted; send JSON text")
            board.refused(id, refusal, fatal: false)
        } else {
            board.received(id, String(decoding: message, as: UTF8.self))
        }
    }

    /// One message per writable callback (the choice is the client's `OutboundQueue`'s); asks
    /// for another while anything is owed.
    private func write(_ id: UInt64) -> Int32 {
        guard let wsi = connections[id]?.wsi else { return -1 }
        switch board.next(id) {
        case .write(let payload, let kind):
            // The payload's own buffer, header in its headroom: shared buffers are never copied.
            precondition(payload.headroom >= SharedPayload.lwsHeadroom, "lws would write before the buffer")
            let n = lws_write(wsi, payload.bytes, payload.count, kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY)
            if n < Int32(payload.count) {
                logger.debug("write failed", metadata: ["client": "c\(id)"])
                return -1
            }
        case .close(let code, let reason):
            var reason = Array(reason.utf8)
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &reason, reason.count)
            return -1
        case .nothing:
            break
        }
        if board.owesMore(id) { lws_callback_on_writable(wsi) }
        return 0
    }
}

extension WebSocketServer: Wire {
    package func requestWrite(_ client: UInt64) {
        if let wsi = connections[client]?.wsi { lws_callback_on_writable(wsi) }
    }

    package func requestTick(after seconds: Double) { schedule(tickTimer, tickCallback, after: seconds) }

    package func requestSweep(after seconds: Double) { schedule(sweepTimer, sweepCallback, after: seconds) }

    package func requestLeaseTick(after seconds: Double) { schedule(leaseTimer, leaseCallback, after: seconds) }

    private func schedule(_ timer: UnsafeMutablePointer<rs_timer>?, _ callback: sul_cb_t, after seconds: Double) {
        guard let context, let timer else { return }
        rs_timer_schedule(context, timer, callback, Int64(seconds * 1e6))
    }
}

extension SharedPayload {
    /// LWS_PRE: what lws_write needs free in front of the bytes it is given.
    package static let lwsHeadroom = Int(rs_lws_pre())
}

/// The context pointer, handed to the signal thread for `lws_cancel_service` only.
private struct ContextHandle: @unchecked Sendable { let pointer: OpaquePointer }
