import ScrollCore

/// One client's conversation (docs/PROTOCOL.md, "Client → server"): turns each message into
/// `SessionEffect`s. No socket and no clock: `now` is passed in. What is owed to the client is
/// its `OutboundQueue`, kept beside it by the switchboard.
package final class ClientSession {
    package let id: UInt64
    /// "c" and the id: made once, since every input names its client (three times a move).
    package let name: String
    package private(set) var room: (any SessionRoom)?
    package private(set) var theme = Theme.light
    private(set) var limiter: RateLimiter
    /// The server's counts of messages received, by type (nil: not counted).
    private let counters: ServerCounters?
    /// When the connection opened: `hello` is due within `helloTimeout`.
    package let connectedAt: Double
    /// Pointers currently down, bounded (so captures and traces cannot grow without end), each
    /// with its newest sample and when that came: a holder that goes quiet is let go.
    private var pointersDown: [Int: (type: String, newest: ClientMessage.Sample, at: Double)] = [:]

    package static let maxPointersDown = 10
    /// Seconds a connection may take to send `hello` before it is closed.
    package static let helloTimeout = 10.0
    /// Seconds a pointer may stay down with no message about it before it is let go as if lifted:
    /// a page that vanished without closing (or a client that never lifts) would otherwise hold a
    /// widget for everyone else for as long as its connection lives.
    package static let holdTimeout = 30.0

    package init(id: UInt64, messagesPerSecond: Double, now: Double, counters: ServerCounters? = nil) {
        self.id = id
        name = "c\(id)"
        self.counters = counters
        connectedAt = now
        limiter = RateLimiter(rate: messagesPerSecond, burst: 2 * messagesPerSecond, now: now)
    }

    /// The hello of a room not here yet (`JoinAnswer.waiting`).
    private var waitingHello: ClientMessage.Hello?
    package var isWaiting: Bool { waitingHello != nil }
    /// The room it waits for.
    package var waitingRoom: String? { waitingHello?.room }
    /// A room owned by another node that this one relays (docs/CLUSTER.md): messages go there as
    /// they came, and the hello again whenever the room gets a new owner.
    package private(set) var relayedRoom: String?
    private var relayedHello: ClientMessage.Hello?
    /// The scene the relayed client's hello named (a room made here when this node takes it over).
    package var relayedScene: String? { relayedHello?.scene }
    /// When its hello first went to the relayed room's owner; nil once the owner welcomed it.
    package private(set) var relayedHelloAt: Double?
    /// When its hello last went (the first, or one sent again): the next waits a second from it.
    private var relayedHelloSentAt = -Double.infinity
    package func welcomedByRelay() { relayedHelloAt = nil }
    /// Seconds an unanswered hello to a relayed room's owner waits before it goes again.
    package static let relayedHelloRetry = 1.0

    /// No `hello` yet, and it was due by `now`.
    package func helloOverdue(now: Double) -> Bool {
        room == nil && waitingHello == nil && relayedRoom == nil && now - connectedAt >= Self.helloTimeout
    }

    /// Whether a pointer is down (the switchboard checks such sessions for quiet holders).
    package var holdsPointers: Bool { !pointersDown.isEmpty }

    /// Pointers with no message for `holdTimeout` by `now` are lifted where they last were, at
    /// their client time moved on by the silence (so without momentum): exactly as if the page had
    /// sent the `up`, which is what the trace records.
    package func releaseQuietPointers(now: Double) -> [SessionEffect] {
        guard let room else { return [] }
        let quiet = pointersDown.filter { now - $0.value.at >= Self.holdTimeout }.sorted { $0.key < $1.key }
        return quiet.flatMap { id, held in
            let t = held.newest.t + (now - held.at) * 1000
            let up = ClientMessage.Pointer(
                phase: .up, id: id, x: held.newest.x, y: held.newest.y, t: t, pointerType: held.type)
            return input(.pointer(up), timeText: nil, in: room, now: now)
        }
    }

    /// Messages dropped by the rate limit so far.
    package var droppedMessages: Int { limiter.dropped }

    /// One whole text message, received at `now`.
    package func receive(_ text: String, now: Double, rooms: some RoomJoining) -> [SessionEffect] {
        switch limiter.admit(now: now) {
        case .accepted:
            break
        case .dropped:
            counters?.count(.dropped)
            return []
        case .droppedWithNotice:
            counters?.count(.dropped)
            let limit = Int(limiter.rate)
            return [.refuse(ProtocolError(.rateLimited, "more than \(limit) messages per second; input dropped"))]
        }
        let message: ClientMessage
        var timeText: NumberText?
        switch ClientMessage.parse(text, timeText: &timeText) {
        case .failure(let error):
            counters?.count(.invalid)
            return [.refuse(error)]
        case .success(let m):
            message = m
        }
        counters?.count(ReceivedType(message))
        switch message {
        case .hello(let hello):
            return join(hello, now: now, rooms: rooms)
        case .ping(let t):
            return [.pong(t: t)]
        case .preferences(let themeName, let reducedMotion) where relayedRoom != nil:
            // Its owner draws the frames of the new theme; this node sends them.
            let restart: [SessionEffect] = prefer(themeName, reducedMotion) ? [.restartFrames] : []
            return restart + [.forward(text)]
        default:
            if relayedRoom != nil { return [.forward(text)] }
            guard let room else {
                let waiting = "the room is not ready yet; send input after the welcome"
                return [.refuse(ProtocolError(.notReady, waitingHello == nil ? "send hello before input" : waiting))]
            }
            return input(message, timeText: timeText, in: room, now: now)
        }
    }

    /// The connection ended: a pointer it held is let go as if lifted.
    package func leave(now: Double) -> [SessionEffect] {
        // A relayed room's owner is told by the switchboard, which knows the relay's clients.
        if relayedRoom != nil { return [] }
        guard let room else { return [] }
        return [
            .recordLeave(roomTime: room.sceneTime(now)), .left(room: room.name),
            .publish(room.leave(name, now: now)),
        ]
    }

    private func input(
        _ message: ClientMessage, timeText: NumberText?, in room: any SessionRoom, now: Double
    ) -> [SessionEffect] {
        if case .pointer(let p) = message, let refusal = trackPointer(p, now: now) { return [.refuse(refusal)] }
        room.track(message, from: name)
        switch message {
        case .hover:
            // For the others' eyes only: no widget gets it, no trace keeps it.
            return room.needsTick ? [.tick] : []
        case let .preferences(themeName, reducedMotion):
            return prefer(themeName, reducedMotion) ? [.restartFrames] : []
        default:
            break
        }
        let named = message.naming(focus: room.defaultFocusID)
        let inputs = InputMapping.sceneInputs(named, client: name)
        // Refused before it is recorded: a trace holds only what the room applied.
        for case .action(let action) in inputs {
            do throws(ActionError) { try room.check(action) } catch {
                return [.refuse(ProtocolError(.badAction, error.message))]
            }
        }
        // Room for all three at once: grown append by append, the list was made twice a move.
        var effects: [SessionEffect] = []
        effects.reserveCapacity(3)
        effects.append(.record(named, roomTime: room.sceneTime(now)))
        let events = room.apply(inputs, now: now)
        // Asked after the input: whether this client now holds a widget that follows its pointer.
        if let t = message.inputTimes?.last {
            effects.append(.applied(t: t, follow: room.follow(for: name), text: timeText))
        }
        effects.append(.publish(events))
        return effects
    }

    private func join(_ hello: ClientMessage.Hello, now: Double, rooms: some RoomJoining) -> [SessionEffect] {
        guard room == nil && waitingHello == nil && relayedRoom == nil else {
            return [.refuse(ProtocolError(.badMessage, "hello was already received on this connection"))]
        }
        guard hello.version == ProtocolVersion.current else {
            let message =
                "the page speaks protocol \(hello.version), this server speaks \(ProtocolVersion.current); reload the page"
            return [.close(ProtocolError(.protocolMismatch, message))]
        }
        switch rooms.join(hello.room, scene: hello.scene, client: id, now: now) {
        case .refused(let refusal):
            return [.close(refusal)]
        case .waiting:
            waitingHello = hello
            return []
        case .joined(let joined):
            return enter(joined, hello: hello)
        }
    }

    /// The client's theme follows its preferences; false when unchanged (a repeated message must
    /// not buy full frames).
    private func prefer(_ themeName: String?, _ reducedMotion: Bool?) -> Bool {
        let named = themeName.flatMap(Theme.named) ?? theme
        let wanted = named.reducingMotion(reducedMotion ?? theme.reducedMotion)
        guard wanted.renderKey != theme.renderKey else { return false }
        theme = wanted
        return true
    }

    /// The room this session waits for is owned by another node: relayed from there. Its hello
    /// goes to the owner, whose welcome comes back.
    package func relay(_ roomName: String, now: Double) -> [SessionEffect] {
        guard let hello = waitingHello ?? relayedHello, room == nil else { return [] }
        waitingHello = nil
        relayedHelloAt = now
        relayedRoom = roomName
        relayedHello = hello
        theme = (Theme.named(hello.theme) ?? .light).reducingMotion(hello.reducedMotion)
        relayedHelloSentAt = now
        return [.forwardHello(relayedHelloText(hello))]
    }

    /// The hello again if the owner has not welcomed the client within `relayedHelloRetry` of the
    /// last one (core NATS may lose it). Not sooner: the owner takes each hello as a new client,
    /// so one still on its way would welcome the page twice.
    package func helloAgain(now: Double) -> String? {
        guard let hello = relayedHello, relayedHelloAt != nil, now - relayedHelloSentAt >= Self.relayedHelloRetry
        else { return nil }
        relayedHelloSentAt = now
        return relayedHelloText(hello)
    }

    /// The hello a relayed client sends its room's owner, in the theme it has now (the owner draws
    /// for it).
    private func relayedHelloText(_ relayed: ClientMessage.Hello) -> String {
        var hello = relayed
        hello.theme = theme.name
        hello.reducedMotion = theme.reducedMotion
        return ClientMessage.hello(hello).encoded()
    }

    /// The relayed room is owned here now: the client joins it as if it had just said hello.
    package func adopt(_ owned: any SessionRoom) -> [SessionEffect] {
        guard let hello = relayedHello, room == nil else { return [] }
        relayedRoom = nil
        relayedHello = nil
        relayedHelloAt = nil
        var now = hello
        now.theme = theme.name
        now.reducedMotion = theme.reducedMotion
        return enter(owned, hello: now)
    }

    /// The room this session waits for is here now.
    package func roomReady(_ ready: any SessionRoom) -> [SessionEffect] {
        guard let hello = waitingHello, room == nil else { return [] }
        waitingHello = nil
        return enter(ready, hello: hello)
    }

    /// The room this session waits for cannot be had: the connection closes with why.
    package func roomUnavailable(_ error: ProtocolError) -> [SessionEffect] {
        guard waitingHello != nil else { return [] }
        waitingHello = nil
        return [.close(error)]
    }

    private func enter(_ joined: any SessionRoom, hello: ClientMessage.Hello) -> [SessionEffect] {
        room = joined
        theme = (Theme.named(hello.theme) ?? .light).reducingMotion(hello.reducedMotion)
        let color = joined.join(name)
        // Everyone else sees the newcomer in the next presence message (publish).
        return [
            .welcome(joined.welcome(client: name, color: color, theme: theme.name)),
            .joined(room: joined.name), .publish([]),
        ]
    }

    /// Keeps at most `maxPointersDown` pointers down; a down beyond that is refused (returned).
    private func trackPointer(_ p: ClientMessage.Pointer, now: Double) -> ProtocolError? {
        switch p.phase {
        case .down:
            if pointersDown[p.id] == nil && pointersDown.count >= Self.maxPointersDown {
                return ProtocolError(
                    .badMessage,
                    "pointer \(p.id) is one too many: at most \(Self.maxPointersDown) pointers may be down at once")
            }
            if let newest = p.samples.last { pointersDown[p.id] = (p.pointerType, newest, now) }
        case .up, .cancel:
            pointersDown[p.id] = nil
        case .move:
            if let newest = p.samples.last, pointersDown[p.id] != nil {
                pointersDown[p.id] = (p.pointerType, newest, now)
            }
        }
        return nil
    }
}
