import ScrollCore

/// Turning client messages into scene input (docs/PROTOCOL.md, "Client → server").
extension WebSocketServer {
    /// Wheel deltas in lines and pages become points at these sizes.
    static let wheelLine = 16.0
    static let wheelPage = 390.0

    func handleMessage(_ client: ClientConnection, _ text: String) {
        let now = MonotonicClock.now()
        guard client.limiter.allow(now: now) else {
            client.droppedMessages += 1
            if now - client.lastRateLimitNotice >= 1 {
                client.lastRateLimitNotice = now
                refuse(client, ProtocolError(.rateLimited, "more than \(Int(config.messagesPerSecond)) messages per second; input dropped"))
            }
            return
        }
        let message: ClientMessage
        switch ClientMessage.parse(text) {
        case .failure(let error):
            refuse(client, error)
            return
        case .success(let m):
            message = m
        }
        switch message {
        case .hello(let hello):
            join(client, hello, now: now)
        case .ping(let t):
            queuePong(ServerMessage.pong(t: t), to: client)
        default:
            guard let room = client.room else {
                refuse(client, ProtocolError(.notReady, "send hello before input"))
                return
            }
            let inputs = sceneInputs(message, client: client.name)
            inputObserver?(room.name, client.name, message, room.sceneTime(now))
            publish(room.apply(inputs, now: now), in: room)
        }
    }

    private func join(_ client: ClientConnection, _ hello: ClientMessage.Hello, now: Double) {
        guard client.room == nil else {
            refuse(client, ProtocolError(.badMessage, "hello was already received on this connection"))
            return
        }
        guard hello.version == ProtocolVersion.current else {
            refuse(client, ProtocolError(.protocolMismatch,
                "the page speaks protocol \(hello.version), this server speaks \(ProtocolVersion.current); reload the page"),
                fatal: true)
            return
        }
        let room: Room
        if let existing = rooms[hello.room] {
            room = existing
        } else {
            guard rooms.count < config.maxRooms else {
                refuse(client, ProtocolError(.serverFull, "the server has \(config.maxRooms) rooms already"), fatal: true)
                return
            }
            room = Room(name: hello.room, scene: makeScene(), origin: now)
            rooms[hello.room] = room
        }
        client.room = room
        client.theme = Theme.named(hello.theme) ?? .light
        room.clients.append(client.id)
        queue(ServerMessage.welcome(client: client.name, room: room.name, scene: room.scene.size, theme: client.theme.name),
              to: client)
        logger.info("joined", metadata: ["client": "\(client.name)", "room": "\(room.name)"])
    }

    func sceneInputs(_ message: ClientMessage, client: String) -> [SceneInput] {
        switch message {
        case .pointer(let p):
            let key = PointerKey(client: client, pointer: p.id)
            return p.samples.map { s in
                .pointer(PointerInput(phase: p.phase, key: key, position: Point(x: s.x, y: s.y), clientTime: s.t / 1000))
            }
        case .wheel(let w):
            let unit = w.deltaMode == 1 ? Self.wheelLine : w.deltaMode == 2 ? Self.wheelPage : 1
            return [.wheel(WheelInput(position: Point(x: w.x, y: w.y), dx: w.dx * unit, dy: w.dy * unit))]
        case .key(let key, let widget, _):
            return [.key(key, widget: widget)]
        case .hello, .ping:
            return []
        }
    }
}
