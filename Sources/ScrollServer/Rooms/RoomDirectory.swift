import ScrollCore

/// Every room's life in one place (docs/STATE.md): which rooms are live and who is in each,
/// which wait dormant in the store; creating, joining, leaving, evicting at the cap, waking,
/// restoring at start, and what to store when. No clock and no I/O: `now` (monotonic) and
/// `wall` (Unix time, only for stored stamps) are passed in, and what the store and the log must
/// hear comes back as `DirectoryEffect`s. Service thread only.
package final class RoomDirectory {
    private struct Entry {
        let room: Room
        var members: [UInt64] = []
        /// The last input, join or leave: the empty room idle longest is evicted first.
        var lastActivity: Double
        /// With a store: the settled snapshot last handed to it, or the fresh scene's.
        var savedSnapshot: String?
        /// The store holds this room (restored, or saved since).
        var isStored = false
        /// Connections that joined it over its life (kept in the store), and as last stored.
        var visits = 0
        var savedVisits = 0
    }

    package let scenes: SceneCatalog
    package let maxRooms: Int
    /// Most rooms kept by the store, live and dormant; nil: there is no store.
    package let maxStored: Int?
    /// Free bytes in front of every payload its rooms make (for the WebSocket header).
    package let headroom: Int
    /// A new room's dice seed (the roller's random button), recorded so a replay draws the same.
    private let seeds: () -> UInt64
    /// New rooms per client address: a token bucket each (`creationRate`, `creationBurst`).
    private var creations: [String: RateLimiter] = [:]
    package var creationRate = 1.0
    package var creationBurst = 120.0
    /// False on a cluster node: a room out of memory is not kept here, since another node may own
    /// it next (the shared store holds it).
    package var keepsDormant = true
    private var live: [String: Entry] = [:]
    /// Stored rooms not in memory (evicted, or beyond `maxRooms` at start).
    private var dormant: [String: StoredRoom] = [:]
    /// Frames rendered by rooms no longer live (`/metrics`).
    private var retiredFrames = 0

    package init(
        scenes: SceneCatalog, maxRooms: Int, maxStored: Int?, headroom: Int = SharedPayload.lwsHeadroom,
        seeds: @escaping () -> UInt64 = { UInt64.random(in: 0...UInt64(Int64.max)) }
    ) {
        self.scenes = scenes
        self.maxRooms = maxRooms
        self.maxStored = maxStored
        self.headroom = headroom
        self.seeds = seeds
    }

    package var liveCount: Int { live.count }
    package var dormantNames: [String] { dormant.keys.sorted() }
    package var dormantCount: Int { dormant.count }
    /// Frames every room rendered since the server started, evicted rooms' too.
    package var framesRendered: Int { live.values.reduce(retiredFrames) { $0 + $1.room.framesRendered } }
    package var rooms: some Sequence<Room> { live.values.lazy.map(\.room) }
    package func room(_ name: String) -> Room? { live[name]?.room }
    package func members(of name: String) -> [UInt64] { live[name]?.members ?? [] }

    // MARK: start

    /// Before anyone connects: the first `maxRooms` of `stored` (most recent first) are made, the
    /// rest wait dormant until someone joins them.
    package func restore(_ stored: [StoredRoom], now: Double, wall: Double) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = []
        for saved in stored {
            if live.count < maxRooms {
                if let entry = make(from: saved, now: now, wall: wall, &effects) { live[saved.name] = entry }
            } else {
                keep(saved, &effects)
            }
        }
        return effects
    }

    // MARK: membership

    /// `client` joins room `name`, showing `scene` (nil: whatever it shows, or the default for a
    /// new room). The room is live, woken from the store, or made; at the cap the empty room idle
    /// longest makes way. Refusals: unknown scene, another scene than the room's, server full.
    package func join(
        _ name: String, scene sceneName: String?, client: UInt64, from address: String = "", now: Double,
        wall: Double
    ) -> (Result<Room, ProtocolError>, [DirectoryEffect]) {
        var effects: [DirectoryEffect] = []
        if let named = sceneName, !scenes.names.contains(named) {
            return (.failure(ProtocolError(.unknownScene, scenes.unknown(named))), effects)
        }
        if live[name] == nil, let woken = wake(name, now: now, wall: wall, &effects) { live[name] = woken }
        if let existing = live[name]?.room {
            // A room's scene is fixed when it is created; naming none means "whatever it shows".
            if let sceneName, sceneName != existing.scene.name {
                let message =
                    "room \"\(name)\" shows scene \"\(existing.scene.name)\", not \"\(sceneName)\"; open it with ?scene=\(existing.scene.name) or choose another room"
                return (.failure(ProtocolError(.sceneMismatch, message)), effects)
            }
        } else {
            // A catalog without the default scene refuses pages that name none.
            let wanted = sceneName ?? SceneCatalog.defaultName
            guard let scene = scenes.make(wanted) else {
                return (.failure(ProtocolError(.unknownScene, scenes.unknown(wanted))), effects)
            }
            guard admitCreation(from: address, now: now) else {
                let message =
                    "too many new rooms from your address (\(Int(creationBurst)) at once, then \(Int(creationRate)) a second); join a room that exists or try again later"
                return (.failure(ProtocolError(.rateLimited, message)), effects)
            }
            guard live.count < maxRooms || evictIdle(wall: wall, &effects) else {
                return (.failure(ProtocolError(.serverFull, "the server has \(maxRooms) rooms in use")), effects)
            }
            scene.dice.reseed(seeds())
            let room = Room(name: name, scene: scene, origin: now, headroom: headroom)
            // Nothing is stored until it differs from the fresh scene.
            live[name] = Entry(
                room: room, lastActivity: now, savedSnapshot: maxStored == nil ? nil : scene.snapshot().text)
            effects.append(.created(room: name, scene: scene.name, seed: scene.dice.seed))
        }
        live[name]!.lastActivity = now
        live[name]!.members.append(client)
        live[name]!.visits += 1
        return (.success(live[name]!.room), effects)
    }

    /// One more new room from `address`, if its bucket allows. Full buckets are forgotten once
    /// many addresses are remembered, so the table stays small.
    private func admitCreation(from address: String, now: Double) -> Bool {
        if creations.count > 4096 { creations = creations.filter { !$0.value.isFull(now: now) } }
        var limiter = creations[address] ?? RateLimiter(rate: creationRate, burst: creationBurst, now: now)
        let admitted = limiter.admit(now: now) == .accepted
        creations[address] = limiter
        return admitted
    }

    /// `client` left room `name` (its pointers are let go by the room itself).
    package func leave(_ name: String, client: UInt64, now: Double) {
        live[name]?.members.removeAll { $0 == client }
        live[name]?.lastActivity = now
    }

    /// Input reached room `name`.
    package func touch(_ name: String, now: Double) { live[name]?.lastActivity = now }

    /// Room `name` and its members, its activity stamped `now`: what an input's publish needs,
    /// found with one hash of the name (every move asks).
    package func touched(_ name: String, now: Double) -> (room: Room, members: [UInt64])? {
        guard let at = live.index(forKey: name) else { return nil }
        live.values[at].lastActivity = now
        return (live.values[at].room, live.values[at].members)
    }

    // MARK: storing

    /// Something in room `name` settled: its state goes to the store if it changed since last saved.
    package func settled(_ name: String, wall: Double) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = []
        persist(name, wall: wall, &effects)
        return effects
    }

    /// When the server stops: every live room's state, if changed.
    package func settleAll(wall: Double) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = []
        for name in live.keys.sorted() { persist(name, wall: wall, &effects) }
        return effects
    }

    /// Rooms whose names begin with this are never stored: `<scroll-widget>` makes one per
    /// element and page load (docs/EMBEDDING.md), so each is used once and its form keeps the value.
    package static let ephemeralPrefix = "embed-"

    private func persist(_ name: String, wall: Double, _ effects: inout [DirectoryEffect]) {
        guard maxStored != nil, !name.hasPrefix(Self.ephemeralPrefix), let entry = live[name] else { return }
        let text = entry.room.scene.snapshot().text
        // A stored room's visits are kept too; a room never stored is stored only once it differs.
        guard text != entry.savedSnapshot || (entry.isStored && entry.visits != entry.savedVisits) else { return }
        live[name]!.savedSnapshot = text
        live[name]!.savedVisits = entry.visits
        live[name]!.isStored = true
        effects.append(
            .save(
                StoredRoom(
                    name: name, scene: entry.room.scene.name, snapshot: text, updated: wall, visits: entry.visits)))
        // One more room in the store: it may now hold one too many.
        if !entry.isStored { trim(&effects) }
    }

    // MARK: a cluster's rooms

    /// A room this node has just claimed comes back from the shared store's state (making way at
    /// the cap); its clients then join it as usual. Refused state: they find no room and make it fresh.
    package func adopt(_ saved: StoredRoom, now: Double, wall: Double) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = []
        guard live[saved.name] == nil, live.count < maxRooms || evictIdle(wall: wall, &effects) else { return effects }
        if let entry = make(from: saved, now: now, wall: wall, &effects) { live[saved.name] = entry }
        return effects
    }

    /// A room this node no longer owns goes, unsaved: its new owner writes it from now on.
    package func drop(_ name: String) {
        guard let entry = live.removeValue(forKey: name) else { return }
        retiredFrames += entry.room.framesRendered
    }

    // MARK: eviction, dormancy, waking

    /// At the room cap, the empty room idle longest goes dormant (its state kept by a store).
    private func evictIdle(wall: Double, _ effects: inout [DirectoryEffect]) -> Bool {
        guard let idle = live.values.filter({ $0.members.isEmpty }).min(by: { $0.lastActivity < $1.lastActivity })
        else { return false }
        let name = idle.room.name
        persist(name, wall: wall, &effects)
        let entry = live.removeValue(forKey: name)!
        retiredFrames += entry.room.framesRendered
        effects.append(.evicted(name))
        if maxStored != nil, entry.isStored, let text = entry.savedSnapshot {
            let stored = StoredRoom(
                name: name, scene: entry.room.scene.name, snapshot: text, updated: wall, visits: entry.visits)
            keep(stored, &effects)
        }
        return true
    }

    /// The dormant room `name`, restored, when there is one and room for it.
    private func wake(_ name: String, now: Double, wall: Double, _ effects: inout [DirectoryEffect]) -> Entry? {
        // Taken out before another room is evicted to make way: that room going dormant may push
        // the oldest dormant one out of the store, which must not be this one.
        guard let saved = dormant.removeValue(forKey: name) else { return nil }
        guard live.count < maxRooms || evictIdle(wall: wall, &effects) else {
            keep(saved, &effects)
            return nil
        }
        return make(from: saved, now: now, wall: wall, &effects)
    }

    /// Keeps `saved` dormant; beyond `maxStored`, dormant rooms are forgotten: throwaway ones
    /// (one visit) before rooms with history, each kind the one stored longest ago first. So
    /// strangers making rooms they use once cannot push out a room people came back to or shared.
    private func keep(_ saved: StoredRoom, _ effects: inout [DirectoryEffect]) {
        guard maxStored != nil, keepsDormant else { return }
        dormant[saved.name] = saved
        trim(&effects)
    }

    /// Forgets dormant rooms while the rooms in memory and dormant are more than `maxStored`.
    private func trim(_ effects: inout [DirectoryEffect]) {
        guard let maxStored else { return }
        while live.count + dormant.count > maxStored,
            let first = dormant.values.min(by: {
                ($0.visits > 1 ? 1 : 0, $0.updated) < ($1.visits > 1 ? 1 : 0, $1.updated)
            })
        {
            dormant[first.name] = nil
            effects.append(.forget(first.name))
        }
    }

    /// A room restored from the store, or nil when its stored state is refused (the row goes, and
    /// the room starts fresh when someone joins it).
    private func make(from saved: StoredRoom, now: Double, wall: Double, _ effects: inout [DirectoryEffect]) -> Entry? {
        let scene: Scene
        do throws(SnapshotError) {
            // Room names become trace file names (--record): only what hello would accept.
            guard FieldRule<String, String>.identifier.validate(saved.name) != nil else {
                throw SnapshotError("the room name is not \(FieldRule<String, String>.identifier.expectation)")
            }
            guard let made = scenes.make(saved.scene) else { throw SnapshotError(scenes.unknown(saved.scene)) }
            try made.restore(SceneSnapshot(parsing: saved.snapshot))
            scene = made
        } catch {
            effects.append(.refused(room: saved.name, reason: "\(error)"))
            return nil
        }
        scene.dice.reseed(seeds())
        effects.append(.created(room: saved.name, scene: scene.name, seed: scene.dice.seed))
        // Idle as long as it has been since it was saved, so eviction drops the oldest first.
        return Entry(
            room: Room(name: saved.name, scene: scene, origin: now, headroom: headroom),
            lastActivity: now - max(wall - saved.updated, 0), savedSnapshot: saved.snapshot, isStored: true,
            visits: saved.visits, savedVisits: saved.visits)
    }
}

/// What a `RoomDirectory` decision means for the store, the recorder and the log.
package enum DirectoryEffect: Equatable {
    /// A room was made (fresh or restored): a recording of it starts with this scene and seed.
    case created(room: String, scene: String, seed: UInt64)
    /// This settled state goes to the store.
    case save(StoredRoom)
    /// The empty room idle longest went out of memory to make way (dormant if it is stored).
    case evicted(String)
    /// The store keeps too many rooms: this dormant one is removed from it.
    case forget(String)
    /// A stored room's state was refused (named with the reason): its row is removed.
    case refused(room: String, reason: String)
}
