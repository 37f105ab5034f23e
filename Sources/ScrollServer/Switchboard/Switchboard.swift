import Logging
import ScrollCore

/// Connects clients to rooms, with no socket: the transport reports connections, whole messages,
/// writable moments and ticks; the switchboard runs each client's `ClientSession`, carries out
/// its effects (its `OutboundQueue`, the room's other clients, recording, storing, the frame
/// clock) and says what to write. Service thread only; times come from `clock`.
package final class Switchboard {
    /// A class: the switchboard looks a client up several times for each message it reads or
    /// writes, and a struct this size was copied whole each time (every reference in it retained
    /// and released, on the hot path of every client of a fan-out).
    package final class Client {
        package let session: ClientSession
        package var outbound: OutboundQueue
        /// The peer's address (new rooms are rate-limited per address).
        package let address: String
        /// A cluster relay's client in a room owned here: what it is sent goes to the relay.
        var remote: ClusterMembership.RemoteClient?
        /// A client of a room owned by another node: it reads the room as relayed here.
        var relayed: RelayedRoom?

        init(session: ClientSession, outbound: OutboundQueue, address: String) {
            self.session = session
            self.outbound = outbound
            self.address = address
        }
    }

    let config: ServerConfig
    let logger: Logger
    let clock: ServerClock
    package let directory: RoomDirectory
    let traces: TraceDirectory?
    let writer: StateWriter?
    package weak var wire: (any Wire)?
    /// What was sent and received, counted as it happens (`/metrics`).
    package let counters: ServerCounters
    let metrics: MetricsExport
    /// Set on a cluster node (`--cluster`): rooms are served here once this node owns them.
    package let cluster: ClusterMembership?

    package internal(set) var clients: [UInt64: Client] = [:]
    /// Connections that have not joined a room yet (capped: `config.maxUnjoinedClients`).
    var unjoined = 0
    /// When the wire's tick timer is set to fire (nil: not set).
    var tickTimerAt: Double?
    private var sweepScheduled = false
    /// Set once the server stops: every connection is being closed, new ones too.
    private(set) var stopping = false

    package init(
        config: ServerConfig, logger: Logger, scenes: SceneCatalog = .standard, store: (any RoomStore)? = nil,
        clock: ServerClock = .system, scheduler: (any Scheduler)? = nil, headroom: Int = SharedPayload.lwsHeadroom,
        metrics: MetricsExport = MetricsExport(), cluster: ClusterMembership? = nil
    ) throws {
        self.cluster = cluster
        self.config = config
        self.logger = logger
        self.clock = clock
        self.metrics = metrics
        counters = ServerCounters(inputToFrame: metrics.inputToFrame)
        traces = try config.recordDirectory.map { try TraceDirectory(path: $0, logger: logger) }
        writer = store.map { store in
            scheduler.map { StateWriter(store: store, logger: logger, scheduler: $0) }
                ?? StateWriter(store: store, logger: logger)
        }
        // A cluster's rooms are stored in its shared bucket, each by its owner: none dormant here.
        let maxStored = cluster != nil ? Int.max : store == nil ? nil : config.maxStoredRooms
        directory = RoomDirectory(scenes: scenes, maxRooms: config.maxRooms, maxStored: maxStored, headroom: headroom)
        directory.keepsDormant = cluster == nil
    }

    // MARK: start and stop

    /// Before the port accepts anyone: the stored rooms come back.
    package func restoreRooms() {
        guard let writer else { return }
        let stored: [StoredRoom]
        do { stored = try writer.store.loadAll() } catch {
            logger.error("cannot read stored rooms; starting without them", metadata: ["reason": "\(error)"])
            return
        }
        carryOut(directory.restore(stored, now: clock.now(), wall: clock.wall()))
        logger.info(
            "restored rooms",
            metadata: [
                "rooms": "\(directory.liveCount)", "dormant": "\(directory.dormantNames.count)",
                "stored": "\(stored.count)",
            ])
    }

    /// Every client is told the server is going away (1001); returns how many there were.
    package func goAway() -> Int {
        stopping = true
        releaseLeases()
        for id in clients.keys where clients[id]!.outbound.enqueueGoingAway() { wire?.requestWrite(id) }
        return clients.count
    }

    /// After the last service: every room's state is stored, then the store closed.
    package func finish() {
        guard let writer else { return }
        carryOut(directory.settleAll(wall: clock.wall()))
        writer.close()
    }

    // MARK: what the transport reports

    package func connected(_ id: UInt64, address: String = "") {
        let session = ClientSession(
            id: id, messagesPerSecond: config.messagesPerSecond, now: clock.now(), counters: counters)
        clients[id] = Client(
            session: session,
            outbound: OutboundQueue(headroom: directory.headroom, slowReader: config.slowReader, counters: counters),
            address: address)
        unjoined += 1
        if stopping {
            if clients[id]!.outbound.enqueueGoingAway() { wire?.requestWrite(id) }
        } else if clients.count > config.maxClients {
            close(id, ProtocolError(.serverFull, "the server has \(config.maxClients) clients already"))
        } else if unjoined > config.maxUnjoinedClients {
            let limit = config.maxUnjoinedClients
            close(id, ProtocolError(.serverFull, "\(limit) connections are waiting to say hello already"))
        }
        ensureSweeping()
        logger.debug("connected", metadata: ["client": "\(session.name)"])
    }

    /// A connection being closed (fatal refusal, stopping) gets no further say in any room.
    package func isClosing(_ id: UInt64) -> Bool { clients[id]?.outbound.isClosing ?? true }

    /// One whole text message from `id`.
    package func received(_ id: UInt64, _ text: String) {
        guard let session = clients[id]?.session, !isClosing(id) else { return }
        let now = clock.now()
        carryOut(session.receive(text, now: now, rooms: Joining(board: self)), for: id, now: now)
        if session.holdsPointers { ensureSweeping() }
        // A hello for a room relayed here already is relayed at once.
        if let cluster, let room = session.waitingRoom, case .relayed = cluster.ownership.role(of: room) {
            relayWaiting(room)
        }
    }

    /// A message that cannot be taken whatever it says: too large (fatal) or binary.
    package func refused(_ id: UInt64, _ error: ProtocolError, fatal: Bool) {
        guard clients[id] != nil else { return }
        counters.count(.invalid)
        if fatal { close(id, error) } else { refuse(id, error) }
    }

    /// `id` may write one message: which.
    package func next(_ id: UInt64) -> OutboundAction {
        guard let client = clients[id] else { return .nothing }
        let feed: (any RoomFeed)? = client.relayed ?? client.session.room
        return client.outbound.next(from: feed, theme: client.session.theme, now: clock.now())
    }

    /// `id` may write: everything it is owed for one write, appended to `batch` (its close, if
    /// that is next, is `next`'s: see `OutboundQueue.nextBatch`).
    package func nextBatch(_ id: UInt64, into batch: inout [OutboundMessage]) {
        guard let client = clients[id] else { return }
        let feed: (any RoomFeed)? = client.relayed ?? client.session.room
        client.outbound.nextBatch(from: feed, theme: client.session.theme, now: clock.now(), into: &batch)
    }

    /// Whether `id`'s next write is its close.
    package func closeIsNext(_ id: UInt64) -> Bool { clients[id]?.outbound.closeIsNext ?? false }

    /// Whether `id` is owed another write (renders its room's frame if due).
    package func owesMore(_ id: UInt64) -> Bool {
        guard let client = clients[id] else { return false }
        let feed: (any RoomFeed)? = client.relayed ?? client.session.room
        return client.outbound.owesMore(renderingFrom: feed, theme: client.session.theme)
    }

    package func closed(_ id: UInt64) {
        forgetRemote(id)
        guard let client = clients.removeValue(forKey: id) else { return }
        counters.sentByDeparted = counters.sentByDeparted + client.outbound.sent
        let session = client.session
        if session.room == nil && session.relayedRoom == nil { unjoined -= 1 }
        if let feed = client.relayed { leaveRelayed(id, feed) }
        if session.droppedMessages + client.outbound.droppedControl > 0 {
            logger.info(
                "dropped input",
                metadata: [
                    "client": "\(session.name)", "messages": "\(session.droppedMessages)",
                    "errors": "\(client.outbound.droppedControl)",
                ])
        }
        let now = clock.now()
        carryOut(session.leave(now: now), for: session, now: now)
    }

    /// The frame clock: every moving room whose tick is due advances to now.
    package func tick() {
        tickTimerAt = nil
        let now = clock.now()
        for room in directory.rooms {
            guard let due = room.nextTick, due <= now + Self.timerSlack else { continue }
            room.nextTick = nil
            if room.needsTick {
                publish(room.advance(now: now), in: room, to: directory.members(of: room.name), now: now, byTick: true)
            }
        }
        armTickTimer(now: now)
    }

    /// Once a second while anyone has not said hello or holds a pointer, or a trace file is open:
    /// a `hello` overdue closes the connection; a pointer quiet for `ClientSession.holdTimeout` is
    /// let go; a trace file quiet for `TraceDirectory.quietAfter` is closed.
    package func sweep() {
        sweepScheduled = false
        let now = clock.now()
        var pending = false
        for id in Array(clients.keys) {
            guard let client = clients[id], !client.outbound.isClosing else { continue }
            let session = client.session
            if session.helloOverdue(now: now) {
                let timeout = Int(ClientSession.helloTimeout)
                close(id, ProtocolError(.notReady, "no hello within \(timeout) s; the page must send it first"))
            } else if session.holdsPointers {
                carryOut(session.releaseQuietPointers(now: now), for: session, now: now)
            }
            pending = pending || session.room == nil || session.holdsPointers
        }
        sweepWaiting(now: now)
        sweepRelays(now: now)
        if let cluster, !cluster.remoteIDs.isEmpty || !cluster.relayed.isEmpty { pending = true }
        traces?.closeQuiet(now: now)
        if pending || traces?.openFiles ?? 0 > 0 { ensureSweeping() }
    }

    func ensureSweeping() {
        guard !sweepScheduled, let wire else { return }
        sweepScheduled = true
        wire.requestSweep(after: Self.sweepInterval)
    }

    package static let sweepInterval = 1.0

    // MARK: carrying out

    private func carryOut(_ effects: [SessionEffect], for id: UInt64, now: Double) {
        guard let session = clients[id]?.session else { return }
        carryOut(effects, for: session, now: now)
    }

    func carryOut(_ effects: [SessionEffect], for session: ClientSession, now: Double) {
        let id = session.id
        // Found once for all the effects (a move has three); a session's `.close` comes alone, so
        // no effect follows one that removed the client.
        let client = clients[id]
        for effect in effects {
            if toRelay(id, effect) { continue }
            switch effect {
            case .welcome(let text):
                if client?.outbound.enqueueControl(text, always: true) == true { wire?.requestWrite(id) }
            case .refuse(let error):
                refuse(id, error)
            case .close(let error):
                close(id, error)
            case .pong(let t):
                if client?.outbound.enqueuePong(ServerMessage.pong(t: t)) == true { wire?.requestWrite(id) }
            case .joined(let room):
                unjoined -= 1
                let scene = directory.room(room)?.scene.name ?? "?"
                // Joining mid-glide: the events that went ahead and are still to come.
                if let batch = directory.room(room)?.eventsAhead(now: now) {
                    client?.outbound.enqueue(batch, now: now)
                }
                logger.info("joined", metadata: ["client": "\(session.name)", "room": "\(room)", "scene": "\(scene)"])
            case .left(let room):
                directory.leave(room, client: id, now: now)
                logger.debug("disconnected", metadata: ["client": "\(session.name)", "room": "\(room)"])
            case let .record(message, roomTime):
                guard let room = session.room else { continue }
                traces?.record(message, client: session.name, room: room.name, roomTime: roomTime, now: now)
                if traces != nil { ensureSweeping() }
            case .recordLeave(let roomTime):
                guard let room = session.room else { continue }
                traces?.leave(client: session.name, room: room.name, roomTime: roomTime, now: now)
                if traces != nil { ensureSweeping() }
            case let .applied(t, follow, text):
                client?.outbound.noteApplied(t: t, follow: follow, text: text, receivedAt: now)
            case .publish(let events):
                guard let name = session.room?.name, let (room, members) = directory.touched(name, now: now) else {
                    continue
                }
                publish(events, in: room, to: members, now: now, byTick: false)
            case .tick:
                guard let name = session.room?.name, let room = directory.room(name) else { continue }
                startTicking(room, now: now)
            case .restartFrames:
                client?.outbound.restartFrames()
                wire?.requestWrite(id)
            case .forward(let text):
                guard let cluster, let room = session.relayedRoom else { continue }
                cluster.link.forward(room, .message(node: cluster.ownership.node, client: id, text: text))
            case .forwardHello(let text):
                guard let room = session.relayedRoom else { continue }
                sayHello(room, client: id, text: text)
            }
        }
    }

    /// Fans events out to the room's clients and asks each for a write (frame, semantics); the
    /// room's frame goes with them, so its next tick is set from now.
    private func publish(_ events: [SceneEvent], in room: Room, to members: [UInt64], now: Double, byTick: Bool) {
        // Encoded once here, not per client: render once, send many.
        let batch = room.takeEventBatch()
        for id in members {
            // A relay's client (a cluster's owner only) gets the room's traffic through its relay.
            guard let client = clients[id], cluster == nil || client.remote == nil else { continue }
            if let batch { client.outbound.enqueue(batch, now: now) }
            wire?.requestWrite(id)
        }
        sendToRelays(room, events: batch)
        frameWent(in: room, now: now, byTick: byTick)
        if events.contains(where: \.settles) { carryOut(directory.settled(room.name, wall: clock.wall())) }
    }

    func carryOut(_ effects: [DirectoryEffect]) {
        for effect in effects {
            switch effect {
            case let .created(room, scene, seed):
                traces?.created(room: room, scene: scene, seed: seed)
            case .save(let stored):
                if let cluster {
                    let now = clock.now()
                    carryOut(cluster.step { $0.save(stored.name, state: stored.clusterValue, now: now) }, now: now)
                } else {
                    writer?.save(stored)
                }
            case .evicted(let room):
                traces?.evicted(room)
                if let cluster {
                    let now = clock.now()
                    carryOut(cluster.step { $0.unwanted(room, now: now) }, now: now)
                }
                logger.info("evicted idle room", metadata: ["room": "\(room)"])
            case .forget(let room):
                writer?.remove(room)
                logger.info("forgot a stored room (too many stored)", metadata: ["room": "\(room)"])
            case let .refused(room, reason):
                writer?.remove(room)
                logger.warning(
                    "stored room refused; it starts fresh", metadata: ["room": "\(room)", "reason": "\(reason)"])
            }
        }
    }

    func refuse(_ id: UInt64, _ error: ProtocolError) {
        logDebugRefusal(id, error)
        if toRelay(id, .refuse(error)) { return }
        if clients[id]?.outbound.enqueueError(error) == true { wire?.requestWrite(id) }
    }

    func close(_ id: UInt64, _ error: ProtocolError) {
        logDebugRefusal(id, error)
        if toRelay(id, .close(error)) { return }
        if clients[id]?.outbound.enqueueFatal(error) == true { wire?.requestWrite(id) }
    }

    private func logDebugRefusal(_ id: UInt64, _ error: ProtocolError) {
        logger.debug(
            "refused", metadata: ["client": "c\(id)", "code": "\(error.code.rawValue)", "detail": "\(error.message)"])
    }

    /// The directory as a session joins through it: its store and recording effects carried out here.
    private struct Joining: RoomJoining {
        let board: Switchboard

        func join(_ room: String, scene: String?, client: UInt64, now: Double) -> JoinAnswer {
            if let answer = board.clusterJoin(room, scene: scene, client: client, now: now) { return answer }
            let (result, effects) = board.directory.join(
                room, scene: scene, client: client, from: board.clients[client]?.address ?? "", now: now,
                wall: board.clock.wall())
            board.carryOut(effects)
            return JoinAnswer(result)
        }
    }
}
