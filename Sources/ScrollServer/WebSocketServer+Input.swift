import CLibWebSockets
import ScrollCore

/// Turning client messages into scene input (docs/PROTOCOL.md, "Client → server").
extension WebSocketServer {
    func handleMessage(_ client: ClientConnection, _ text: String) {
        let now = MonotonicClock.now()
        switch client.limiter.admit(now: now) {
        case .accepted:
            break
        case .dropped:
            return
        case .droppedWithNotice:
            refuse(
                client,
                ProtocolError(
                    .rateLimited, "more than \(Int(config.messagesPerSecond)) messages per second; input dropped"))
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
            if case .pointer(let p) = message, !trackPointer(client, p) { return }
            room.track(message, from: client.name)
            switch message {
            case .hover:
                // For the others' eyes only: no widget gets it, no trace keeps it.
                if room.needsTick { ensureTicking() }
                return
            case let .preferences(theme, reducedMotion):
                let named = theme.flatMap(Theme.named) ?? client.theme
                let wanted = named.reducingMotion(reducedMotion ?? client.theme.reducedMotion)
                // Unchanged: nothing to redraw (a repeated message must not buy full frames).
                guard wanted.renderKey != client.theme.renderKey else { return }
                client.theme = wanted
                client.outbound.restartFrames()
                lws_callback_on_writable(client.wsi)
                return
            default:
                break
            }
            let named = message.naming(focus: room.scene.defaultFocus?.id)
            let inputs = InputMapping.sceneInputs(named, client: client.name)
            // Refused before it is recorded: a trace holds only what the room applied.
            for case .action(let action) in inputs {
                do { try room.scene.check(action) } catch {
                    refuse(client, ProtocolError(.badAction, error.message))
                    return
                }
            }
            traces?.record(named, client: client.name, room: room.name, roomTime: room.sceneTime(now))
            if let t = message.inputTimes?.last { client.outbound.noteApplied(t: t) }
            publish(room.apply(inputs, now: now), in: room)
        }
    }

    private func join(_ client: ClientConnection, _ hello: ClientMessage.Hello, now: Double) {
        guard client.room == nil else {
            refuse(client, ProtocolError(.badMessage, "hello was already received on this connection"))
            return
        }
        guard hello.version == ProtocolVersion.current else {
            refuse(
                client,
                ProtocolError(
                    .protocolMismatch,
                    "the page speaks protocol \(hello.version), this server speaks \(ProtocolVersion.current); reload the page"
                ),
                fatal: true)
            return
        }
        if let named = hello.scene, !scenes.names.contains(named) {
            refuse(client, ProtocolError(.unknownScene, scenes.unknown(named)), fatal: true)
            return
        }
        let room: Room
        if let existing = rooms[hello.room] ?? wakeRoom(hello.room, now: now) {
            // A room's scene is fixed when it is created; naming none means "whatever it shows".
            if let sceneName = hello.scene, sceneName != existing.scene.name {
                refuse(
                    client,
                    ProtocolError(
                        .sceneMismatch,
                        "room \"\(hello.room)\" shows scene \"\(existing.scene.name)\", not \"\(sceneName)\"; open it with ?scene=\(existing.scene.name) or choose another room"
                    ),
                    fatal: true)
                return
            }
            room = existing
        } else {
            // A catalog without the default scene refuses pages that name none.
            let sceneName = hello.scene ?? SceneCatalog.defaultName
            guard let scene = scenes.make(sceneName) else {
                refuse(client, ProtocolError(.unknownScene, scenes.unknown(sceneName)), fatal: true)
                return
            }
            guard rooms.count < config.maxRooms || evictIdleRoom() else {
                refuse(
                    client, ProtocolError(.serverFull, "the server has \(config.maxRooms) rooms in use"), fatal: true)
                return
            }
            // The room's random numbers (the roller's "random" button) come from this seed,
            // which the trace records, so a replay draws the same numbers.
            scene.dice.reseed(UInt64.random(in: 0...UInt64(Int64.max)))
            room = Room(name: hello.room, scene: scene, origin: now)
            rooms[hello.room] = room
            noteFresh(room)
            traces?.created(room: room.name, scene: scene.name, seed: scene.dice.seed)
        }
        room.lastActivity = now
        client.room = room
        client.theme = (Theme.named(hello.theme) ?? .light).reducingMotion(hello.reducedMotion)
        room.clients.append(client.id)
        let color = room.join(client.name)
        // Not subject to the control cap: without a welcome the page never starts.
        queue(
            ServerMessage.welcome(
                client: client.name, color: color, room: room.name, scene: room.scene, theme: client.theme.name),
            to: client, always: true)
        // Everyone else sees the newcomer in the next presence message.
        publish([], in: room)
        logger.info(
            "joined", metadata: ["client": "\(client.name)", "room": "\(room.name)", "scene": "\(room.scene.name)"])
    }

    /// At the room limit, the empty room idle longest makes way (a store keeps its state).
    func evictIdleRoom() -> Bool {
        guard let idle = rooms.values.filter({ $0.clients.isEmpty }).min(by: { $0.lastActivity < $1.lastActivity })
        else { return false }
        rooms[idle.name] = nil
        retire(idle)
        logger.info("evicted idle room", metadata: ["room": "\(idle.name)"])
        return true
    }

    /// Keeps at most `maxPointersDown` pointers down per client; refuses a down beyond that.
    private func trackPointer(_ client: ClientConnection, _ p: ClientMessage.Pointer) -> Bool {
        switch p.phase {
        case .down:
            if !client.pointersDown.contains(p.id) && client.pointersDown.count >= ClientConnection.maxPointersDown {
                refuse(
                    client,
                    ProtocolError(
                        .badMessage,
                        "pointer \(p.id) is one too many: at most \(ClientConnection.maxPointersDown) pointers may be down at once"
                    ))
                return false
            }
            client.pointersDown.insert(p.id)
        case .up, .cancel:
            client.pointersDown.remove(p.id)
        case .move:
            break
        }
        return true
    }
}
