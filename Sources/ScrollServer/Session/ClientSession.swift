import ScrollCore

/// One client's conversation (docs/PROTOCOL.md, "Client → server"): turns each message into
/// `SessionEffect`s. No socket and no clock: `now` is passed in. What is owed to the client is
/// its `OutboundQueue`, kept beside it by the switchboard.
package final class ClientSession {
    package let id: UInt64
    package var name: String { "c\(id)" }
    package private(set) var room: (any SessionRoom)?
    package private(set) var theme = Theme.light
    private(set) var limiter: RateLimiter
    /// Pointer ids currently down: bounded, so captures (and traces) cannot grow without end.
    private var pointersDown: Set<Int> = []

    package static let maxPointersDown = 10

    package init(id: UInt64, messagesPerSecond: Double, now: Double) {
        self.id = id
        limiter = RateLimiter(rate: messagesPerSecond, burst: 2 * messagesPerSecond, now: now)
    }

    /// Messages dropped by the rate limit so far.
    package var droppedMessages: Int { limiter.dropped }

    /// One whole text message, received at `now`.
    package func receive(_ text: String, now: Double, rooms: some RoomJoining) -> [SessionEffect] {
        switch limiter.admit(now: now) {
        case .accepted:
            break
        case .dropped:
            return []
        case .droppedWithNotice:
            let limit = Int(limiter.rate)
            return [.refuse(ProtocolError(.rateLimited, "more than \(limit) messages per second; input dropped"))]
        }
        let message: ClientMessage
        switch ClientMessage.parse(text) {
        case .failure(let error): return [.refuse(error)]
        case .success(let m): message = m
        }
        switch message {
        case .hello(let hello):
            return join(hello, now: now, rooms: rooms)
        case .ping(let t):
            return [.pong(t: t)]
        default:
            guard let room else { return [.refuse(ProtocolError(.notReady, "send hello before input"))] }
            return input(message, in: room, now: now)
        }
    }

    /// The connection ended: a pointer it held is let go as if lifted.
    package func leave(now: Double) -> [SessionEffect] {
        guard let room else { return [] }
        return [
            .recordLeave(roomTime: room.sceneTime(now)), .left(room: room.name),
            .publish(room.leave(name, now: now)),
        ]
    }

    private func input(_ message: ClientMessage, in room: any SessionRoom, now: Double) -> [SessionEffect] {
        if case .pointer(let p) = message, let refusal = trackPointer(p) { return [.refuse(refusal)] }
        room.track(message, from: name)
        switch message {
        case .hover:
            // For the others' eyes only: no widget gets it, no trace keeps it.
            return room.needsTick ? [.tick] : []
        case let .preferences(themeName, reducedMotion):
            let named = themeName.flatMap(Theme.named) ?? theme
            let wanted = named.reducingMotion(reducedMotion ?? theme.reducedMotion)
            // Unchanged: nothing to redraw (a repeated message must not buy full frames).
            guard wanted.renderKey != theme.renderKey else { return [] }
            theme = wanted
            return [.restartFrames]
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
        var effects: [SessionEffect] = [.record(named, roomTime: room.sceneTime(now))]
        if let t = message.inputTimes?.last { effects.append(.applied(t: t)) }
        effects.append(.publish(room.apply(inputs, now: now)))
        return effects
    }

    private func join(_ hello: ClientMessage.Hello, now: Double, rooms: some RoomJoining) -> [SessionEffect] {
        guard room == nil else {
            return [.refuse(ProtocolError(.badMessage, "hello was already received on this connection"))]
        }
        guard hello.version == ProtocolVersion.current else {
            let message =
                "the page speaks protocol \(hello.version), this server speaks \(ProtocolVersion.current); reload the page"
            return [.close(ProtocolError(.protocolMismatch, message))]
        }
        switch rooms.join(hello.room, scene: hello.scene, client: id, now: now) {
        case .failure(let refusal):
            return [.close(refusal)]
        case .success(let joined):
            room = joined
            theme = (Theme.named(hello.theme) ?? .light).reducingMotion(hello.reducedMotion)
            let color = joined.join(name)
            // Everyone else sees the newcomer in the next presence message (publish).
            return [
                .welcome(joined.welcome(client: name, color: color, theme: theme.name)),
                .joined(room: joined.name), .publish([]),
            ]
        }
    }

    /// Keeps at most `maxPointersDown` pointers down; a down beyond that is refused (returned).
    private func trackPointer(_ p: ClientMessage.Pointer) -> ProtocolError? {
        switch p.phase {
        case .down:
            if !pointersDown.contains(p.id) && pointersDown.count >= Self.maxPointersDown {
                return ProtocolError(
                    .badMessage,
                    "pointer \(p.id) is one too many: at most \(Self.maxPointersDown) pointers may be down at once")
            }
            pointersDown.insert(p.id)
        case .up, .cancel:
            pointersDown.remove(p.id)
        case .move:
            break
        }
        return nil
    }
}
