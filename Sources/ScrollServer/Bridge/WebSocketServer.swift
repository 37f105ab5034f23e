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
    /// The frame clock's: when its tick is due (MonotonicClock), and the thread that wakes the
    /// loop then (lws's own timers wake it by polling without waiting: see TickPacer).
    private var tickDue: Double?
    private var pacer: TickPacer?
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
        /// In `senders`: sent a message in this pass of the loop, written to at its end.
        var sender = false
        /// The peer sent its close (lws answers it): nothing more is written.
        var peerClosed = false
        /// Our close was handed to lws.
        var closeSent = false
    }
    private var connections: [UInt64: Connection] = [:]
    private var nextClientID: UInt64 = 1
    /// Clients whose messages were read in this pass of the loop, in order.
    private var senders: [UInt64] = []
    /// What one write gathers (reused).
    private var batch: [OutboundMessage] = []
    private let framed = FramedWrite(headroom: SharedPayload.lwsHeadroom)

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

    /// The most lws hands `send` at once (it keeps the rest for the next writable moment): a whole
    /// write, however many messages it gathers (`OutboundQueue.maxBatchBytes` and the message
    /// after them, each at most 64 KiB and its header).
    static let sendLimit = 2 * OutboundQueue.maxBatchBytes + 4096

    /// The operations listener's port once started (`--metrics-port`); nil: none.
    public private(set) var metricsPort: Int?

    /// Binds the port (and the operations listener's) and returns it (useful with port 0). Call
    /// `run()` next.
    public func start() throws -> Int {
        LWSLogging.route(to: logger)
        board.restoreRooms()
        let ctx = rs_create_context(
            config.host, Int32(config.port), ProtocolVersion.subprotocol, httpCallback, wsCallback,
            Self.receiveBufferSize, Self.sendLimit, Unmanaged.passUnretained(self).toOpaque(), &contextMemory)
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
        pacer = TickPacer { [contextBox] in
            contextBox.withLock { handle in if let handle { lws_cancel_service(handle.pointer) } }
        }
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
            tickIfDue()
            flushSenders()
            http.accepts.checkFailedAccept()
        }
        shutDown(context)
        pacer?.stop()
        pacer = nil
        for case let t? in [sweepTimer, leaseTimer, wakeTimer] { rs_timer_cancel(t); free(t) }
        (sweepTimer, leaseTimer, wakeTimer) = (nil, nil, nil)
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
            tickIfDue()
            flushSenders()
        }
        logger.info("shut down", metadata: ["clients": "\(open)", "unanswered": "\(connections.count)"])
    }

    /// The frame clock's tick, once its time has come (the pacer woke the loop for it, or
    /// something else did later).
    private func tickIfDue() {
        guard let due = tickDue, MonotonicClock.now() >= due else { return }
        tickDue = nil
        board.tick()
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
            if !connections[id]!.sender {
                connections[id]!.sender = true
                senders.append(id)
            }
            receive(id, input, len)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let id = clientID(user) else { return -1 }
            return flush(id, inCallback: true)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let id = clientID(user) { connections[id]!.peerClosed = true }
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

    // MARK: writing

    /// Once lws has dispatched what its `poll` found: each client whose messages were read is
    /// written what they made (its frame, `applied`, pong, errors) at once, before the loop waits
    /// again; the others that made anything owed are at lws's writable callbacks, which the next
    /// `poll` returns at once for. Not all at once here: a room's fan-out, written in one go, would
    /// keep the loop from reading the next input until it is done.
    private func flushSenders() {
        for id in senders where connections[id] != nil {
            connections[id]!.sender = false
            _ = flush(id, inCallback: false)
        }
        senders.removeAll(keepingCapacity: true)
    }

    /// Writes everything `id` is owed in one write. Outside lws's writable callback
    /// (`inCallback` false) only while lws keeps nothing unsent for it: the rest of an earlier
    /// write goes first, at the writable callback lws has asked for. A close needs that callback
    /// (returning -1 is what closes); the result is the callback's.
    private func flush(_ id: UInt64, inCallback: Bool) -> Int32 {
        guard let connection = connections[id], !connection.closeSent else { return inCallback ? -1 : 0 }
        let wsi = connection.wsi
        guard !connection.peerClosed, inCallback || lws_partial_buffered(wsi) == 0 else { return 0 }
        batch.removeAll(keepingCapacity: true)
        board.nextBatch(id, into: &batch)
        if batch.isEmpty {
            guard board.closeIsNext(id) else { return 0 }
            guard inCallback, case .close(let code, let reason) = board.next(id) else {
                lws_callback_on_writable(wsi)
                return 0
            }
            connections[id]!.closeSent = true
            var text = Array(reason.utf8)
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &text, text.count)
            return -1
        }
        guard write(batch, to: wsi) else {
            logger.debug("write failed", metadata: ["client": "c\(id)"])
            // Nothing more for it: lws closes it on return from its callback, else at its next service.
            connections[id]!.closeSent = true
            if !inCallback { rs_kill_soon(wsi) }
            return -1
        }
        if board.owesMore(id) { lws_callback_on_writable(wsi) }
        return 0
    }

    /// One `lws_write`: a lone message from its own buffer (lws frames it in the headroom: shared
    /// buffers are never copied), several framed back to back in `framed` and written as they are.
    /// lws keeps whatever the socket does not take and sends it when it can.
    private func write(_ messages: [OutboundMessage], to wsi: OpaquePointer) -> Bool {
        if messages.count == 1 {
            let payload = messages[0].payload
            precondition(payload.headroom >= SharedPayload.lwsHeadroom, "lws would write before the buffer")
            let kind = messages[0].kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
            return lws_write(wsi, payload.bytes, payload.count, kind) >= Int32(payload.count)
        }
        framed.frame(messages)
        return rs_write_frames(wsi, framed.bytes, framed.count) >= Int32(framed.count)
    }
}

extension WebSocketServer: Wire {
    /// A sender of this pass is written at its end; anyone else at its writable callback.
    package func requestWrite(_ client: UInt64) {
        guard let connection = connections[client], !connection.sender else { return }
        lws_callback_on_writable(connection.wsi)
    }

    package func requestTick(after seconds: Double) {
        let due = MonotonicClock.now() + seconds
        tickDue = due
        pacer?.arm(at: due)
    }

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
