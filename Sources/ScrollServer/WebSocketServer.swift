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
public final class WebSocketServer: @unchecked Sendable {
    public let config: ServerConfig
    let logger: Logger
    let makeScene: () -> Scene
    /// Appends each room's accepted input to a trace (`--record DIR`).
    let traces: TraceDirectory?

    private var context: OpaquePointer?
    private var timer: UnsafeMutablePointer<rs_timer>?
    private var tickScheduled = false
    private let stopping = Atomic<Bool>(false)
    private let contextBox = Mutex<ContextHandle?>(nil)

    var clients: [UInt64: ClientConnection] = [:]
    var rooms: [String: Room] = [:]
    private var nextClientID: UInt64 = 1
    private var sendBuffer: UnsafeMutableRawPointer
    private var sendCapacity = 64 * 1024
    private let pre = rs_lws_pre()

    public init(config: ServerConfig, logger: Logger, makeScene: @escaping () -> Scene = { DemoScene.make() }) throws {
        self.config = config
        self.logger = logger
        self.makeScene = makeScene
        traces = try config.recordDirectory.map { try TraceDirectory(path: $0, logger: logger) }
        sendBuffer = UnsafeMutableRawPointer.allocate(byteCount: pre + sendCapacity, alignment: 16)
    }

    deinit { sendBuffer.deallocate() }

    /// Binds the port and returns it (useful with port 0). Call `run()` next.
    public func start() throws -> Int {
        LWSLogging.route(to: logger)
        let ctx = rs_create_context(config.host, Int32(config.port), config.publicDirectory,
                                    ProtocolVersion.subprotocol, wsCallback,
                                    ClientMessageLimits.maxBytes + 1024,
                                    Unmanaged.passUnretained(self).toOpaque())
        guard let ctx else {
            throw ServerStartError(description: "could not listen on \(config.host):\(config.port) (port in use or not permitted?)")
        }
        context = ctx
        contextBox.withLock { $0 = ContextHandle(pointer: ctx) }
        timer = rs_timer_new(Unmanaged.passUnretained(self).toOpaque())
        return Int(rs_listen_port(ctx))
    }

    /// Services the context until `stop()`; then closes every connection.
    public func run() {
        guard let context else { return }
        while !stopping.load(ordering: .acquiring) {
            if lws_service(context, 0) < 0 { break }
        }
        if let timer { rs_timer_cancel(timer); free(timer) }
        timer = nil
        contextBox.withLock { $0 = nil }
        lws_context_destroy(context)
        self.context = nil
        logger.info("stopped")
    }

    /// Safe from any thread (signal handlers).
    public func stop() {
        stopping.store(true, ordering: .releasing)
        contextBox.withLock { handle in if let handle { lws_cancel_service(handle.pointer) } }
    }

    // MARK: callback dispatch

    fileprivate func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons,
                            _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_ESTABLISHED:
            guard let user else { return -1 }
            let id = nextClientID
            nextClientID += 1
            rs_session_id(user).pointee = id
            let client = ClientConnection(id: id, wsi: wsi, limiter: RateLimiter(
                rate: config.messagesPerSecond, burst: 2 * config.messagesPerSecond, now: MonotonicClock.now()))
            clients[id] = client
            if clients.count > config.maxClients {
                refuse(client, ProtocolError(.serverFull, "the server has \(config.maxClients) clients already"), fatal: true)
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
        guard client.closeAfterFlush == nil else { return }
        if lws_is_first_fragment(client.wsi) != 0 {
            client.rx.removeAll(keepingCapacity: true)
            client.rxTooLarge = false
        }
        if client.rx.count + len > ClientMessageLimits.maxBytes {
            client.rxTooLarge = true
        } else if let input, len > 0 {
            client.rx.append(contentsOf: UnsafeRawBufferPointer(start: input, count: len))
        }
        guard lws_is_final_fragment(client.wsi) != 0, lws_remaining_packet_payload(client.wsi) == 0 else { return }
        defer { client.rx.removeAll(keepingCapacity: client.rx.capacity <= 4096) }
        if client.rxTooLarge {
            refuse(client, ProtocolError(.tooLarge, "message exceeds \(ClientMessageLimits.maxBytes) bytes"))
        } else if lws_frame_is_binary(client.wsi) != 0 {
            refuse(client, ProtocolError(.unsupported, "binary messages are not accepted; send JSON text"))
        } else {
            handleMessage(client, String(decoding: client.rx, as: UTF8.self))
        }
    }

    private func disconnect(_ client: ClientConnection) {
        clients[client.id] = nil
        if client.limiter.dropped + client.droppedErrors > 0 {
            logger.info("dropped input", metadata: ["client": "\(client.name)",
                "messages": "\(client.limiter.dropped)", "errors": "\(client.droppedErrors)"])
        }
        guard let room = client.room else { return }
        room.clients.removeAll { $0 == client.id }
        let now = MonotonicClock.now()
        traces?.leave(client: client.name, room: room.name, roomTime: room.sceneTime(now))
        let events = room.apply([.leave(client: client.name)], now: now)
        publish(events, in: room)
        logger.debug("disconnected", metadata: ["client": "\(client.name)", "room": "\(room.name)"])
    }

    // MARK: output

    /// Queues a control message (welcome, errors) for one client. A client that does not
    /// read its errors loses the excess ones (counted), not its connection.
    func queue(_ text: String, to client: ClientConnection, always: Bool = false) {
        guard always || client.control.count < ClientConnection.maxControl else {
            client.droppedErrors += 1
            return
        }
        client.control.append(text)
        lws_callback_on_writable(client.wsi)
    }

    func queuePong(_ text: String, to client: ClientConnection) {
        client.pong = text
        lws_callback_on_writable(client.wsi)
    }

    func refuse(_ client: ClientConnection, _ error: ProtocolError, fatal: Bool = false) {
        logger.debug("refused", metadata: ["client": "\(client.name)", "code": "\(error.code.rawValue)", "detail": "\(error.message)"])
        if fatal {
            guard client.closeAfterFlush == nil else { return }
            // Fatal refusals always get through: they explain the close that follows.
            queue(ServerMessage.error(error, fatal: true), to: client, always: true)
            client.closeAfterFlush = (1008, error.code.rawValue)
        } else {
            queue(ServerMessage.error(error), to: client)
        }
    }

    private func slowConsumer(_ client: ClientConnection) {
        guard client.closeAfterFlush == nil else { return }
        client.events.removeAll()
        client.queuedEvents = 0
        client.control = [ServerMessage.error(ProtocolError(.slowConsumer, "too many undelivered messages; reconnect"), fatal: true)]
        client.closeAfterFlush = (1008, ProtocolError.Code.slowConsumer.rawValue)
        lws_callback_on_writable(client.wsi)
    }

    /// Fans events out to the room's clients and asks each for a write (frame, semantics).
    func publish(_ events: [SceneEvent], in room: Room) {
        // Encoded once here, not per client: render once, send many.
        let batch = events.isEmpty ? nil : (json: Array(ServerMessage.events(events).utf8), count: events.count)
        for id in room.clients {
            guard let client = clients[id] else { continue }
            if let batch, client.closeAfterFlush == nil {
                client.events.append(batch)
                client.queuedEvents += batch.count
                if client.queuedEvents > config.maxQueuedEvents { slowConsumer(client) }
            }
            lws_callback_on_writable(client.wsi)
        }
        if room.scene.isAnimating { ensureTicking() }
    }

    /// One message per writable callback; asks for another while anything is pending.
    private func flush(_ client: ClientConnection) -> Int32 {
        if !client.control.isEmpty {
            let text = client.control.removeFirst()
            if write(client, Array(text.utf8), LWS_WRITE_TEXT) < 0 { return -1 }
        } else if let pong = client.pong, client.closeAfterFlush == nil {
            client.pong = nil
            if write(client, Array(pong.utf8), LWS_WRITE_TEXT) < 0 { return -1 }
        } else if let close = client.closeAfterFlush {
            let reason = Array(close.reason.utf8)
            reason.withUnsafeBufferPointer { buf in
                lws_close_reason(client.wsi, lws_close_status(rawValue: UInt32(close.code)),
                                 UnsafeMutablePointer(mutating: buf.baseAddress), buf.count)
            }
            return -1
        } else if let room = client.room {
            if !client.events.isEmpty {
                let batch = client.events.removeFirst()
                client.queuedEvents -= batch.count
                if write(client, batch.json, LWS_WRITE_TEXT) < 0 { return -1 }
            } else if client.semanticsSent != room.semanticsVersion {
                client.semanticsSent = room.semanticsVersion
                if write(client, Array(room.semanticsJSON.utf8), LWS_WRITE_TEXT) < 0 { return -1 }
            } else {
                let (frame, changed) = room.frame(theme: client.theme)
                if frame.seq != client.frameSeq {
                    // Latest wins: a client that missed frames gets the full one.
                    let continuous = client.frameSeq != 0 && client.frameSeq &+ 1 == frame.seq
                    client.frameSeq = frame.seq
                    if !continuous {
                        if write(client, frame.full, LWS_WRITE_BINARY) < 0 { return -1 }
                    } else if changed {
                        if write(client, frame.delta, LWS_WRITE_BINARY) < 0 { return -1 }
                    }
                }
            }
        }
        if hasPending(client) { lws_callback_on_writable(client.wsi) }
        return 0
    }

    private func hasPending(_ client: ClientConnection) -> Bool {
        if !client.control.isEmpty || client.pong != nil || client.closeAfterFlush != nil { return true }
        guard let room = client.room else { return false }
        return !client.events.isEmpty || client.semanticsSent != room.semanticsVersion
            || room.frame(theme: client.theme).frame.seq != client.frameSeq
    }

    private func write(_ client: ClientConnection, _ bytes: [UInt8], _ kind: lws_write_protocol) -> Int32 {
        if bytes.count > sendCapacity {
            sendBuffer.deallocate()
            sendCapacity = bytes.count * 2
            sendBuffer = UnsafeMutableRawPointer.allocate(byteCount: pre + sendCapacity, alignment: 16)
        }
        let payload = (sendBuffer + pre).assumingMemoryBound(to: UInt8.self)
        bytes.withUnsafeBufferPointer { payload.update(from: $0.baseAddress!, count: bytes.count) }
        let n = lws_write(client.wsi, payload, bytes.count, kind)
        if n < Int32(bytes.count) {
            logger.debug("write failed", metadata: ["client": "\(client.name)"])
            return -1
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
        for room in rooms.values where room.scene.isAnimating {
            publish(room.advance(now: now), in: room)
        }
    }
}

/// The context pointer, handed to the signal thread for `lws_cancel_service` only.
private struct ContextHandle: @unchecked Sendable { let pointer: OpaquePointer }

private func wsCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let owner = lws_context_user(ctx) else { return 0 }
    return Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().handle(wsi, reason, user, input, len)
}

private func tickCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = rs_timer_owner(sul) else { return }
    Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().tick()
}
