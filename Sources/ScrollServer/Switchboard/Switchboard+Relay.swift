import ScrollCore

/// Rooms served across nodes (docs/CLUSTER.md, "Relays"). On the owner, a relay's client is a
/// session like any other whose messages come from the relay and whose own messages go back to
/// it; the room's traffic goes to every relay once, in the bytes its own clients get. On a relay,
/// a client's messages go to the owner as they came, and it reads the owner's traffic as it would
/// read a room here.
extension Switchboard {
    // MARK: relay side

    /// The room is owned by another node (a new one, if it was relayed already): a fresh copy of
    /// it, whose frames and versions count afresh; its clients say hello to the owner (again).
    func follow(_ room: String) {
        guard let cluster else { return }
        let previous = cluster.relayed[room]
        let feed = RelayedRoom(name: room, headroom: directory.headroom)
        cluster.relayed[room] = feed
        if previous == nil { cluster.link.follow(room) }
        let now = clock.now()
        for id in previous?.members ?? [] {
            guard let session = clients[id]?.session, !isClosing(id) else { continue }
            clients[id]!.relayed = feed
            clients[id]!.outbound.readsAnotherRoom()
            feed.members.append(id)
            carryOut(session.relay(room, now: now), for: session, now: now)
        }
        relayWaiting(room)
    }

    /// Clients waiting for a room relayed here are relayed: their hellos go to its owner.
    func relayWaiting(_ room: String) {
        guard let cluster, let feed = cluster.relayed[room] else { return }
        let now = clock.now()
        ensureSweeping()
        for (id, _) in cluster.waiting.removeValue(forKey: room) ?? [] {
            guard let session = clients[id]?.session, !isClosing(id), session.isWaiting else { continue }
            clients[id]!.relayed = feed
            feed.members.append(id)
            unjoined -= 1
            carryOut(session.relay(room, now: now), for: session, now: now)
        }
    }

    /// A relayed client left: its owner is told; the last one here lets the relay go.
    func leaveRelayed(_ id: UInt64, _ feed: RelayedRoom) {
        guard let cluster else { return }
        feed.members.removeAll { $0 == id }
        cluster.link.forward(feed.name, .left(node: cluster.ownership.node, client: id))
        if feed.members.isEmpty {
            let now = clock.now()
            carryOut(cluster.step { $0.unwanted(feed.name, now: now) }, now: now)
        }
    }

    /// The room is no longer relayed here (owned here now, or nobody here is in it).
    func unfollow(_ room: String) {
        guard let cluster, cluster.relayed.removeValue(forKey: room) != nil else { return }
        cluster.link.unfollow(room)
    }

    /// This node's relayed clients of `room` join it here: it is owned here now.
    func adoptRelayed(_ room: String, feed: RelayedRoom?, now: Double) {
        for id in feed?.members ?? [] {
            guard let session = clients[id]?.session, !isClosing(id) else { continue }
            clients[id]!.relayed = nil
            clients[id]!.outbound.readsAnotherRoom()
            let (result, effects) = directory.join(
                room, scene: session.relayedScene, client: id, from: clients[id]!.address, now: now, wall: clock.wall())
            carryOut(effects)
            switch result {
            case .success(let joined):
                // Counted as joined while relayed; joining here counts it again (`.joined`).
                unjoined += 1
                carryOut(session.adopt(joined), for: session, now: now)
            case .failure(let refusal):
                close(id, refusal)
            }
        }
    }

    /// The owner's message for a room relayed here.
    func relayed(_ room: String, _ message: RelayOutbound) {
        guard let cluster, let feed = cluster.relayed[room] else { return }
        let now = clock.now()
        switch message {
        case .frame, .semantics, .presence:
            feed.take(message)
            for id in feed.members { wire?.requestWrite(id) }
        case .events(let text):
            let batch = EventBatch(payload: SharedPayload(text: text, headroom: directory.headroom))
            for id in feed.members where clients[id]?.outbound.enqueue(batch, now: now) == true {
                wire?.requestWrite(id)
            }
        case let .toClient(node, id, toClient):
            guard node == cluster.ownership.node, feed.members.contains(id), clients[id] != nil else { return }
            switch toClient {
            case .welcome(let text):
                clients[id]!.session.welcomedByRelay()
                clients[id]!.outbound.welcomedAfterSemantics()
                if clients[id]!.outbound.enqueueControl(text, always: true) { wire?.requestWrite(id) }
            case let .error(code, text):
                refuse(id, ProtocolError(ProtocolError.Code(rawValue: code) ?? .badMessage, text))
            case let .fatal(code, text):
                close(id, ProtocolError(ProtocolError.Code(rawValue: code) ?? .badMessage, text))
            case let .applied(t, follow):
                clients[id]!.outbound.noteApplied(t: t, follow: follow, receivedAt: now)
            case .restartFrames:
                break  // this node restarted them when it forwarded the preferences
            }
        case .closed:
            // Stopping or lost there: claimed from here at once rather than at the next retry.
            carryOut(cluster.step { $0.claimSoon(room, now: now) }, now: now)
        }
    }

    // MARK: owner side

    /// A relay's message for a room owned here.
    func fromRelay(_ room: String, _ message: RelayInbound) {
        guard let cluster else { return }
        let now = clock.now()
        switch message {
        case let .hello(node, client, owner, text):
            // Sent to an owner before us (it died) and heard here late: the relay says hello to
            // us itself once it finds us; taking this one too would welcome its client twice.
            guard owner == cluster.ownership.node else { return }
            fromRemote(ClusterMembership.RemoteClient(node: node, client: client, room: room), text, hello: true)
        case let .message(node, client, text):
            fromRemote(ClusterMembership.RemoteClient(node: node, client: client, room: room), text, hello: false)
        case let .left(node, client):
            let key = ClusterMembership.RemoteClient(node: node, client: client, room: room)
            if let id = cluster.remoteIDs[key] { closed(id) }
        case .alive(let node):
            cluster.heard[room, default: [:]][node] = now
        }
    }

    /// A relay's client's hello or message: a hello starts its session afresh.
    private func fromRemote(_ key: ClusterMembership.RemoteClient, _ text: String, hello: Bool) {
        guard let cluster else { return }
        cluster.heard[key.room, default: [:]][key.node] = clock.now()
        if hello, let known = cluster.remoteIDs[key] { closed(known) }
        guard let id = cluster.remoteIDs[key] ?? (hello ? connectRemote(key) : nil) else { return }
        guard cluster.ownership.role(of: key.room) == .owned, directory.room(key.room) != nil else {
            // Not ours (any more): the relay's client reconnects and finds the owner.
            close(id, ProtocolError(.roomMoved, "room \"\(key.room)\" moved to another server; reconnect"))
            return
        }
        received(id, text)
    }

    /// A session for a relay's client: it counts like any other in presence and capture.
    private func connectRemote(_ key: ClusterMembership.RemoteClient) -> UInt64 {
        let cluster = cluster!
        let id = cluster.nextRemoteID
        cluster.nextRemoteID += 1
        cluster.remoteIDs[key] = id
        // Named by its id here (`c` and 20 digits at most), which no client of this node has.
        let session = ClientSession(
            id: id, messagesPerSecond: config.messagesPerSecond, now: clock.now(), counters: counters)
        let client = Client(
            session: session,
            outbound: OutboundQueue(headroom: directory.headroom, slowReader: config.slowReader, counters: counters),
            address: "node \(key.node)")
        client.remote = key
        clients[id] = client
        unjoined += 1
        // A newcomer on a relay gets semantics, presence and the frame at once: all go again.
        cluster.sentToRelays[key.room] = nil
        // The sweep lets a silent relay's clients go.
        ensureSweeping()
        return id
    }

    /// What a session says to its client, when the client is a relay's: sent to the relay.
    /// False when the effect is not a message to the client (carried out as usual).
    func toRelay(_ id: UInt64, _ effect: SessionEffect) -> Bool {
        guard let cluster, let key = clients[id]?.remote else { return false }
        let message: ToClient
        switch effect {
        case .welcome(let text): message = .welcome(text)
        case .refuse(let error): message = .error(code: error.code.rawValue, message: error.message)
        case .close(let error): message = .fatal(code: error.code.rawValue, message: error.message)
        case let .applied(t, follow, _): message = .applied(t: t, follow: follow)
        case .pong: return true  // the relay answers pings itself
        case .restartFrames:
            // The relay restarted its frames; the frame of the new theme goes now, not at the next change.
            if let room = directory.room(key.room) { sendToRelays(room, events: nil) }
            return true
        default: return false
        }
        cluster.link.broadcast(key.room, .toClient(node: key.node, client: key.client, message))
        if case .close = effect { closed(id) }
        return true
    }

    /// After the room changed: its relays get the events, then whatever changed of semantics and
    /// presence, then the frame for each theme their clients use.
    func sendToRelays(_ room: Room, events: EventBatch?) {
        guard let cluster else { return }
        let remote = directory.members(of: room.name).compactMap { id in clients[id]?.remote == nil ? nil : id }
        guard !remote.isEmpty else { return }
        let name = room.name
        if let events { cluster.link.broadcast(name, .events(events.payload.text)) }
        var sent = cluster.sentToRelays[name] ?? .init()
        if sent.semantics != room.semanticsVersion {
            sent.semantics = room.semanticsVersion
            cluster.link.broadcast(name, .semantics(room.semantics.text))
        }
        if sent.presence != room.presenceVersion {
            sent.presence = room.presenceVersion
            cluster.link.broadcast(name, .presence(room.presenceMessage.text))
        }
        var themes: [String: Theme] = [:]
        for id in remote { if let theme = clients[id]?.session.theme { themes[theme.renderKey] = theme } }
        for (key, theme) in themes.sorted(by: { $0.key < $1.key }) {
            let frame = room.frame(theme: theme)
            guard sent.frames[key] != frame.seq else { continue }
            sent.frames[key] = frame.seq
            cluster.link.broadcast(
                name,
                .frame(
                    theme: key, seq: frame.seq, changed: frame.changed, delta: frame.delta.byteArray,
                    full: frame.full.byteArray))
        }
        cluster.sentToRelays[name] = sent
    }

    /// Relays' clients of rooms owned here whose relay went quiet leave; relayed rooms tell their
    /// owners this node is still there.
    func sweepRelays(now: Double) {
        guard let cluster else { return }
        for (key, id) in cluster.remoteIDs {
            let last = cluster.heard[key.room]?[key.node] ?? -.infinity
            if now - last >= ClusterMembership.relaySilence { closed(id) }
        }
        cluster.heard = cluster.heard.filter { directory.room($0.key) != nil }
        for (room, feed) in cluster.relayed.sorted(by: { $0.key < $1.key }) where !feed.members.isEmpty {
            cluster.link.forward(room, .alive(node: cluster.ownership.node))
            // A hello not answered within a second of the last one goes again (core NATS may lose
            // it, or the owner may not have listened yet); an owner that never answers (it died
            // with its lease still running) is waited for as a claim would be:
            // `ClientSession.helloTimeout`.
            for id in feed.members {
                guard let session = clients[id]?.session, let since = session.relayedHelloAt else { continue }
                if now - since >= ClientSession.helloTimeout {
                    let silent = ProtocolError(
                        .roomUnavailable, "the server that has room \"\(room)\" does not answer; try again")
                    close(id, silent)
                } else if let hello = session.helloAgain(now: now) {
                    sayHello(room, client: id, text: hello)
                }
            }
        }
    }

    /// A relayed client's hello, to the room's owner as this node knows it.
    func sayHello(_ room: String, client: UInt64, text: String) {
        guard let cluster, case .relayed(let owner) = cluster.ownership.role(of: room) else { return }
        cluster.link.forward(room, .hello(node: cluster.ownership.node, client: client, owner: owner, text: text))
    }

    /// A relay's client is gone from the owner's books.
    func forgetRemote(_ id: UInt64) {
        guard let cluster, let key = clients[id]?.remote else { return }
        cluster.remoteIDs[key] = nil
    }
}
