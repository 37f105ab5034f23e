import CLibWebSockets
import Logging
import ScrollCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

public struct ServerStartError: Error, CustomStringConvertible {
    public var description: String
}

/// The libwebsockets bridge: one context, one service thread. Every method except
/// `stop()` runs on that thread (lws calls are not thread-safe; `lws_cancel_service` is).
/// Protocol 0 (HTTP: the page, upgrade checks) is in WebSocketServer+HTTP.swift.
public final class WebSocketServer: @unchecked Sendable {
    public let config: ServerConfig
    let logger: Logger
    /// The scenes a room can be created with (`hello.scene`).
    let scenes: SceneCatalog
    /// Appends each room's accepted input to a trace (`--record DIR`).
    let traces: TraceDirectory?
    /// The static page (`--public`).
    let files: StaticFiles
    /// Who may open a WebSocket (`--allow-origin`) and with which subprotocol.
    let upgrades: UpgradeCheck
    /// Rooms' settled state across restarts (`--state`); nil: none kept.
    let state: RoomPersistence?

    private var context: OpaquePointer?
    /// What lws keeps pointers into (protocol table, names): freed after the context.
    private var contextMemory: UnsafeMutablePointer<rs_context_memory>?
    private var timer: UnsafeMutablePointer<rs_timer>?
    /// Wakes the service loop at the end of the shutdown grace (lws_service waits for events).
    private var wakeTimer: UnsafeMutablePointer<rs_timer>?
    private var tickScheduled = false
    private let stopping = Atomic<Bool>(false)
    /// Set on the service thread once `stop()` was seen: every connection is being closed.
    private var shuttingDown = false
    private let contextBox = PThreadLocked<ContextHandle?>(nil)

    var clients: [UInt64: ClientConnection] = [:]
    var rooms: [String: Room] = [:]
    private var nextClientID: UInt64 = 1

    public init(
        config: ServerConfig, logger: Logger, scenes: SceneCatalog = .standard, store: RoomStore? = nil
    ) throws {
        self.config = config
        self.logger = logger
        self.scenes = scenes
        traces = try config.recordDirectory.map { try TraceDirectory(path: $0, logger: logger) }
        do {
            files = try StaticFiles(directory: config.publicDirectory)
        } catch {
            throw ServerStartError(description: error.description)
        }
        upgrades = UpgradeCheck(
            origins: OriginPolicy(allowing: config.allowedOrigins), subprotocol: ProtocolVersion.subprotocol)
        state = store.map {
            RoomPersistence(writer: StateWriter(store: $0, logger: logger), maxStored: config.maxStoredRooms)
        }
    }

    /// lws allocates this much per connection at the handshake. Messages are small (a pointer move
    /// is ~100 B); a longer one (up to `ClientMessageLimits.maxBytes`) arrives in pieces that
    /// `receive` joins. It was the message cap, 17 KiB per client.
    static let receiveBufferSize = 4096

    /// Binds the port and returns it (useful with port 0). Call `run()` next.
    public func start() throws -> Int {
        LWSLogging.route(to: logger)
        restoreRooms(now: MonotonicClock.now())
        let ctx = rs_create_context(
            config.host, Int32(config.port), ProtocolVersion.subprotocol, httpCallback, wsCallback,
            Self.receiveBufferSize,
            Unmanaged.passUnretained(self).toOpaque(), &contextMemory)
        guard let ctx else {
            throw ServerStartError(
                description: "could not listen on \(config.host):\(config.port) (port in use or not permitted?)")
        }
        context = ctx
        contextBox.withLock { $0 = ContextHandle(pointer: ctx) }
        timer = rs_timer_new(Unmanaged.passUnretained(self).toOpaque())
        wakeTimer = rs_timer_new(nil)
        return Int(rs_listen_port(ctx))
    }

    /// Services the context until `stop()`, then shuts down (`shutDown`), destroys the context
    /// and returns. The rooms are still there then, at rest as far as their clients left them,
    /// for whatever must be kept after the process.
    public func run() {
        guard let context else { return }
        while !stopping.load(ordering: .acquiring) {
            if lws_service(context, 0) < 0 { break }
        }
        shutDown(context)
        for t in [timer, wakeTimer] {
            if let t { rs_timer_cancel(t); free(t) }
        }
        timer = nil
        wakeTimer = nil
        contextBox.withLock { $0 = nil }
        lws_context_destroy(context)
        self.context = nil
        rs_context_memory_free(contextMemory)
        contextMemory = nil
        closeState()
        logger.info("stopped")
    }

    /// Every client is sent a close frame, 1001 "going away" (the page says the server is
    /// restarting and reconnects), and the context is serviced until all have answered or
    /// `config.shutdownGrace` passed: a stop takes at most that long, not a TCP reset.
    private func shutDown(_ context: OpaquePointer) {
        shuttingDown = true
        let open = clients.count
        for client in clients.values { goAway(client) }
        let deadline = MonotonicClock.now() + config.shutdownGrace
        if let wakeTimer { rs_timer_schedule(context, wakeTimer, wakeCallback, Int64(config.shutdownGrace * 1e6)) }
        while !clients.isEmpty && MonotonicClock.now() < deadline {
            if lws_service(context, 0) < 0 { break }
        }
        logger.info("shut down", metadata: ["clients": "\(open)", "unanswered": "\(clients.count)"])
    }

    private func goAway(_ client: ClientConnection) {
        if client.outbound.enqueueGoingAway() { lws_callback_on_writable(client.wsi) }
    }

    /// Safe from any thread (signal handlers).
    public func stop() {
        stopping.store(true, ordering: .releasing)
        contextBox.withLock { handle in if let handle { lws_cancel_service(handle.pointer) } }
    }

    // MARK: callback dispatch

    fileprivate func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ len: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_ESTABLISHED:
            guard let user else { return -1 }
            let id = nextClientID
            nextClientID += 1
            rs_session_id(user).pointee = id
            let client = ClientConnection(
                id: id, wsi: wsi,
                limiter: RateLimiter(
                    rate: config.messagesPerSecond, burst: 2 * config.messagesPerSecond,
                    now: MonotonicClock.now()),
                outbound: OutboundQueue(headroom: SharedPayload.lwsHeadroom, maxQueuedEvents: config.maxQueuedEvents))
            clients[id] = client
            if shuttingDown {
                goAway(client)
            } else if clients.count > config.maxClients {
                refuse(
                    client, ProtocolError(.serverFull, "the server has \(config.maxClients) clients already"),
                    fatal: true)
            }
            logger.debug("connected", metadata: ["client": "\(client.name)"])
        case LWS_CALLBACK_RECEIVE:
            guard let client = client(user) else { return -1 }
            receive(client, input, len)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let client = client(user) else { return -1 }
            return flush(client)
        case LWS_CALLBACK_CLOSED:
            guard let client = client(user) else { return 0 }
            disconnect(client)
        default:
            break
        }
        return 0
    }

    private func client(_ user: UnsafeMutableRawPointer?) -> ClientConnection? {
        guard let user else { return nil }
        return clients[rs_session_id(user).pointee]
    }

    private func receive(_ client: ClientConnection, _ input: UnsafeMutableRawPointer?, _ len: Int) {
        // A connection being closed (fatal refusal) gets no further say in any room.
        guard !client.outbound.isClosing else { return }
        if lws_is_first_fragment(client.wsi) != 0 { client.rx.removeAll(keepingCapacity: true) }
        if client.rx.count + len > ClientMessageLimits.maxBytes {
            // Refused as soon as it is too large, not once the rest has been read (closes 1009).
            client.rx = []
            refuse(
                client, ProtocolError(.tooLarge, "a message may be at most \(ClientMessageLimits.maxBytes) bytes"),
                fatal: true)
            return
        }
        if let input, len > 0 { client.rx.append(contentsOf: UnsafeRawBufferPointer(start: input, count: len)) }
        guard lws_is_final_fragment(client.wsi) != 0, lws_remaining_packet_payload(client.wsi) == 0 else { return }
        defer { client.rx.removeAll(keepingCapacity: client.rx.capacity <= 4096) }
        if lws_frame_is_binary(client.wsi) != 0 {
            refuse(client, ProtocolError(.unsupported, "binary messages are not accepted; send JSON text"))
        } else {
            handleMessage(client, String(decoding: client.rx, as: UTF8.self))
        }
    }

    private func disconnect(_ client: ClientConnection) {
        clients[client.id] = nil
        if client.limiter.dropped + client.outbound.droppedControl > 0 {
            logger.info(
                "dropped input",
                metadata: [
                    "client": "\(client.name)",
                    "messages": "\(client.limiter.dropped)", "errors": "\(client.outbound.droppedControl)",
                ])
        }
        guard let room = client.room else { return }
        room.clients.removeAll { $0 == client.id }
        let now = MonotonicClock.now()
        traces?.leave(client: client.name, room: room.name, roomTime: room.sceneTime(now))
        publish(room.leave(client.name, now: now), in: room)
        logger.debug("disconnected", metadata: ["client": "\(client.name)", "room": "\(room.name)"])
    }

    // MARK: output (the policy is OutboundQueue; here only the lws calls)

    func queue(_ text: String, to client: ClientConnection, always: Bool = false) {
        if client.outbound.enqueueControl(text, always: always) { lws_callback_on_writable(client.wsi) }
    }

    func queuePong(_ text: String, to client: ClientConnection) {
        if client.outbound.enqueuePong(text) { lws_callback_on_writable(client.wsi) }
    }

    func refuse(_ client: ClientConnection, _ error: ProtocolError, fatal: Bool = false) {
        logger.debug(
            "refused",
            metadata: ["client": "\(client.name)", "code": "\(error.code.rawValue)", "detail": "\(error.message)"])
        let queued =
            fatal
            ? client.outbound.enqueueFatal(error)
            : client.outbound.enqueueControl(ServerMessage.error(error))
        if queued { lws_callback_on_writable(client.wsi) }
    }

    /// Fans events out to the room's clients and asks each for a write (frame, semantics).
    func publish(_ events: [SceneEvent], in room: Room) {
        // Encoded once here, not per client: render once, send many.
        let batch = events.isEmpty ? nil : EventBatch(events, headroom: SharedPayload.lwsHeadroom)
        for id in room.clients {
            guard let client = clients[id] else { continue }
            if let batch { client.outbound.enqueue(batch) }
            lws_callback_on_writable(client.wsi)
        }
        if room.needsTick { ensureTicking() }
        if events.contains(where: \.settles) { persist(room) }
    }

    /// One message per writable callback; asks for another while anything is pending.
    private func flush(_ client: ClientConnection) -> Int32 {
        switch client.outbound.next(from: client.room, theme: client.theme) {
        case .write(let payload, let kind):
            // The payload's own buffer, header in its headroom: shared buffers are never copied.
            precondition(payload.headroom >= SharedPayload.lwsHeadroom, "lws would write before the buffer")
            let n = lws_write(
                client.wsi, payload.bytes, payload.count, kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY)
            if n < Int32(payload.count) {
                logger.debug("write failed", metadata: ["client": "\(client.name)"])
                return -1
            }
        case .close(let code, let reason):
            var reason = Array(reason.utf8)
            lws_close_reason(client.wsi, lws_close_status(rawValue: UInt32(code)), &reason, reason.count)
            return -1
        case .nothing:
            break
        }
        if client.outbound.wantsWritable(room: client.room, theme: client.theme) {
            lws_callback_on_writable(client.wsi)
        }
        return 0
    }

    // MARK: frame clock

    /// While anything moves, tick at `tickRate`; when nothing moves, no timer runs.
    func ensureTicking() {
        guard !tickScheduled, let context, let timer else { return }
        tickScheduled = true
        rs_timer_schedule(context, timer, tickCallback, Int64(1_000_000 / config.tickRate))
    }

    fileprivate func tick() {
        tickScheduled = false
        let now = MonotonicClock.now()
        for room in rooms.values where room.needsTick {
            publish(room.advance(now: now), in: room)
        }
    }
}

extension SharedPayload {
    /// LWS_PRE: what lws_write needs free in front of the bytes it is given.
    package static let lwsHeadroom = Int(rs_lws_pre())
}

/// The context pointer, handed to the signal thread for `lws_cancel_service` only.
private struct ContextHandle: @unchecked Sendable { let pointer: OpaquePointer }

private func wsCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ len: Int
) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let owner = lws_context_user(ctx) else { return 0 }
    return Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().handle(wsi, reason, user, input, len)
}

private func httpCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ len: Int
) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let owner = lws_context_user(ctx) else {
        return lws_callback_http_dummy(wsi, reason, user, input, len)
    }
    return Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().handleHTTP(wsi, reason, user, input, len)
}

/// Does nothing: firing is enough to end a wait in lws_service.
private func wakeCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {}

private func tickCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = rs_timer_owner(sul) else { return }
    Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().tick()
}
