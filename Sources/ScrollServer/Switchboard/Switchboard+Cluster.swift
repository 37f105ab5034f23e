import ScrollCore

/// A cluster node's switchboard (docs/CLUSTER.md): a room is served once this node owns it; a
/// hello for a room not owned here waits for the claim.
extension Switchboard {
    /// A hello for `room` on a cluster node: joined at once if the room is ours and here, else
    /// the client waits while the room is claimed.
    func clusterJoin(_ room: String, scene: String?, client: UInt64, now: Double) -> JoinAnswer? {
        guard let cluster else { return nil }
        if cluster.ownership.role(of: room) == .owned, directory.room(room) != nil { return nil }
        if let named = scene, !directory.scenes.names.contains(named) {
            return .refused(ProtocolError(.unknownScene, directory.scenes.unknown(named)))
        }
        cluster.waiting[room, default: []].append((client, scene))
        // Relayed here already: `received` relays the newcomer once its session knows it waits.
        if case .relayed = cluster.ownership.role(of: room) { return .waiting }
        carryOut(cluster.step { $0.want(room, now: now) }, now: now)
        return .waiting
    }

    /// The store answered (on the service thread).
    package func clusterAnswered(_ answer: ClusterAnswer) {
        guard let cluster else { return }
        let now = clock.now()
        let effects: [OwnershipEffect]
        switch answer {
        case let .claim(room, claim): effects = cluster.step { $0.claimAnswered(room, claim, now: now) }
        case let .renew(room, renewal): effects = cluster.step { $0.renewAnswered(room, renewal, now: now) }
        case let .write(room, write):
            switch write {
            case .written(let revision):
                cluster.stateWrites += 1
                logger.debug("state written", metadata: ["room": "\(room)", "revision": "\(revision)"])
            case .failed: cluster.stateWriteFailures += 1
            case .refused: break
            }
            effects = cluster.step { $0.writeAnswered(room, write, now: now) }
        case let .inbound(room, message): return fromRelay(room, message)
        case let .outbound(room, message): return relayed(room, message)
        }
        carryOut(effects, now: now)
    }

    /// Leases due for renewal, claims due for retry, leases run out.
    package func leaseTick() {
        guard let cluster else { return }
        cluster.leaseTickAt = nil
        let now = clock.now()
        carryOut(cluster.step { $0.tick(now: now) }, now: now)
    }

    /// At a stop, before the connections close: every owned room's state is written and its
    /// lease let go, so another node takes it at once.
    func releaseLeases() {
        guard let cluster else { return }
        let now = clock.now()
        carryOut(directory.settleAll(wall: clock.wall()))
        carryOut(cluster.step { $0.releaseAll(now: now) }, now: now)
    }

    /// True once every lease this node held is let go (a stop waits for it, within its grace).
    package var leasesReleased: Bool { cluster?.ownership.released ?? true }

    func carryOut(_ effects: [OwnershipEffect], now: Double) {
        guard let cluster else { return }
        for effect in effects {
            switch effect {
            case .claim, .renew, .write:
                cluster.link.send(effect)
            case .release(let room, _):
                cluster.link.send(effect)
                // Its relays claim it at once instead of at their next retry.
                cluster.link.broadcast(room, .closed)
                cluster.link.unserve(room)
                cluster.sentToRelays[room] = nil
            case let .own(room, state):
                if let state, let saved = StoredRoom(name: room, clusterValue: state) {
                    carryOut(directory.adopt(saved, now: now, wall: clock.wall()))
                }
                logger.info("owns room", metadata: ["room": "\(room)", "restored": "\(state?.isEmpty == false)"])
                cluster.link.serve(room)
                admitWaiting(room, now: now)
                adoptRelayed(room, feed: cluster.relayed[room], now: now)
                // Everyone who asked for it went meanwhile: let it go again.
                if directory.members(of: room).isEmpty {
                    directory.drop(room)
                    carryOut(cluster.step { $0.unwanted(room, now: now) }, now: now)
                }
            case let .follow(room, owner):
                logger.info("relays room", metadata: ["room": "\(room)", "owner": "\(owner)"])
                follow(room)
            case .unfollow(let room):
                unfollow(room)
            case .lose(let room):
                let members = directory.members(of: room)
                logger.warning("lost room", metadata: ["room": "\(room)", "clients": "\(members.count)"])
                cluster.roomsLost += 1
                let moved = ProtocolError(.roomMoved, "room \"\(room)\" moved to another server; reconnect")
                for id in members { close(id, moved) }
                directory.drop(room)
                cluster.link.unserve(room)
                cluster.sentToRelays[room] = nil
            case .unavailable(let room):
                let unavailable = ProtocolError(
                    .roomUnavailable, "the room store cannot be reached to open room \"\(room)\"; try again")
                for (id, _) in cluster.waiting.removeValue(forKey: room) ?? [] {
                    guard let session = clients[id]?.session else { continue }
                    carryOut(session.roomUnavailable(unavailable), for: session, now: now)
                }
            }
        }
        ensureLeaseTicking(now: now)
    }

    /// The room is ours: the clients that waited for it join it, in the order they came.
    private func admitWaiting(_ room: String, now: Double) {
        guard let cluster else { return }
        for (id, scene) in cluster.waiting.removeValue(forKey: room) ?? [] {
            guard let session = clients[id]?.session, !isClosing(id) else { continue }
            let (result, effects) = directory.join(
                room, scene: scene, client: id, from: clients[id]!.address, now: now, wall: clock.wall())
            carryOut(effects)
            switch result {
            case .success(let joined): carryOut(session.roomReady(joined), for: session, now: now)
            case .failure(let refusal): carryOut(session.roomUnavailable(refusal), for: session, now: now)
            }
        }
    }

    /// The lease clock calls at the ownership's next due time (sooner than set, it is set again).
    private func ensureLeaseTicking(now: Double) {
        guard let cluster, let due = cluster.ownership.nextDue, let wire else { return }
        if let at = cluster.leaseTickAt, at <= due { return }
        cluster.leaseTickAt = due
        wire.requestLeaseTick(after: max(due - now, 0))
    }

    /// Once a second: clients that waited `ClientSession.helloTimeout` for a room owned elsewhere
    /// are told so; a room nobody here waits for any more is no longer claimed.
    func sweepWaiting(now: Double) {
        guard let cluster else { return }
        for room in cluster.waiting.keys.sorted() {
            var still: [(client: UInt64, scene: String?)] = []
            for (id, scene) in cluster.waiting[room]! {
                guard let session = clients[id]?.session, session.isWaiting, !isClosing(id) else { continue }
                if now - session.connectedAt >= ClientSession.helloTimeout {
                    let owner =
                        if case .relayed(let owner) = cluster.ownership.role(of: room) { " by \(owner)" } else { "" }
                    let elsewhere = ProtocolError(
                        .roomUnavailable, "room \"\(room)\" is served\(owner) on another server; try again")
                    carryOut(session.roomUnavailable(elsewhere), for: session, now: now)
                } else {
                    still.append((id, scene))
                }
            }
            cluster.waiting[room] = still.isEmpty ? nil : still
            if still.isEmpty, cluster.ownership.role(of: room) != .owned {
                carryOut(cluster.step { $0.unwanted(room, now: now) }, now: now)
            }
        }
    }
}
