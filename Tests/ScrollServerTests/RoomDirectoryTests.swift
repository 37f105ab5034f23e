import ScrollCore
import Testing

@testable import ScrollServer

/// Rooms' life (docs/STATE.md, "Eviction and dormant rooms"), on a fake clock: `now` is scene
/// seconds, `wall` Unix seconds, both chosen by the test.
@Suite("Room directory: creating, evicting, waking, restoring")
struct RoomDirectoryTests {
    private func directory(maxRooms: Int, maxStored: Int? = 100) -> RoomDirectory {
        var next: UInt64 = 0
        return RoomDirectory(
            scenes: .standard, maxRooms: maxRooms, maxStored: maxStored, headroom: testHeadroom,
            seeds: {
                next += 1
                return next
            })
    }

    /// `client` joins `name` (the ruler scene) at `now`, or the test fails.
    @discardableResult
    private func join(
        _ d: RoomDirectory, _ name: String, client: UInt64, now: Double, wall: Double = 1000,
        effects: inout [DirectoryEffect]
    ) throws -> Room {
        let (result, made) = d.join(name, scene: "ruler", client: client, now: now, wall: wall)
        effects += made
        return try result.get()
    }

    /// The ruler of room `name` set to `kg` and left to settle; what the directory stores then.
    private func settle(_ d: RoomDirectory, _ name: String, at kg: Double, now: Double, wall: Double)
        -> [DirectoryEffect]
    {
        let room = d.room(name)!
        _ = room.apply(
            [.action(ActionInput(widget: "ruler", name: "setValue", args: ["value": .number(kg)]))], now: now)
        _ = room.advance(now: now + 5)
        return d.settled(name, wall: wall)
    }

    /// One visit: `client` joins `name` at `now`, sets the ruler to `kg` (if given) and leaves a
    /// second later; the directory's effects are appended to `effects`.
    private func visit(
        _ d: RoomDirectory, _ name: String, client: UInt64, now: Double, wall: Double, settling kg: Double? = nil,
        effects: inout [DirectoryEffect]
    ) throws {
        try join(d, name, client: client, now: now, wall: wall, effects: &effects)
        if let kg { effects += settle(d, name, at: kg, now: now, wall: wall) }
        d.leave(name, client: client, now: now + 1)
    }

    private func rulerValue(_ room: Room) -> Double? {
        room.scene.semantics.first { $0.id == "ruler" }?.valueNow
    }

    @Test("a new room is made with the next dice seed and its scene; nothing is stored until it settles differently")
    func creates() throws {
        let d = directory(maxRooms: 4)
        var effects: [DirectoryEffect] = []
        let room = try join(d, "a", client: 1, now: 0, effects: &effects)
        #expect(effects == [.created(room: "a", scene: "ruler", seed: 1)])
        #expect(room.scene.dice.seed == 1)
        #expect(d.members(of: "a") == [1])
        #expect(d.settled("a", wall: 1000) == [], "the fresh scene's state is not stored")
        let saved = settle(d, "a", at: 80, now: 1, wall: 1001)
        #expect(saved.count == 1)
        guard case .save(let stored) = saved.first else { return }
        #expect(stored.name == "a" && stored.scene == "ruler" && stored.updated == 1001)
        #expect(d.settled("a", wall: 1002) == [], "unchanged since saved: nothing to store")
    }

    @Test("at the cap the empty room idle longest is evicted, never one with clients; all full: server_full")
    func evictionOrder() throws {
        let d = directory(maxRooms: 3)
        var effects: [DirectoryEffect] = []
        try join(d, "a", client: 1, now: 0, effects: &effects)
        try join(d, "b", client: 2, now: 1, effects: &effects)
        try join(d, "c", client: 3, now: 2, effects: &effects)
        d.leave("b", client: 2, now: 3)  // b idle since 3
        d.leave("a", client: 1, now: 5)  // a idle since 5
        effects = []
        try join(d, "d", client: 4, now: 6, effects: &effects)
        #expect(effects == [.evicted("b"), .created(room: "d", scene: "ruler", seed: 4)])
        #expect(d.room("b") == nil && d.room("a") != nil)
        #expect(d.dormantNames == [], "b never settled: nothing of it is kept")

        d.touch("a", now: 7)
        try join(d, "e", client: 5, now: 8, effects: &effects)
        #expect(d.room("a") == nil, "a was the only empty room")
        let (full, none) = d.join("f", scene: "ruler", client: 6, now: 9, wall: 1000)
        #expect(none == [])
        #expect(throws: ProtocolError(.serverFull, "the server has 3 rooms in use")) { try full.get() }
        #expect(d.liveCount == 3)
    }

    @Test("touched: a room and its members in join order, found by one lookup; none for a room not here")
    func touchedFindsRoomAndMembers() throws {
        let d = directory(maxRooms: 2)
        var effects: [DirectoryEffect] = []
        let a = try join(d, "a", client: 1, now: 0, effects: &effects)
        try join(d, "b", client: 3, now: 1, effects: &effects)
        try join(d, "a", client: 2, now: 1, effects: &effects)
        let found = try #require(d.touched("a", now: 2))
        #expect(found.room === a && found.members == [1, 2])
        #expect(d.touched("b", now: 2)?.members == [3])
        #expect(d.touched("c", now: 2) == nil)
    }

    @Test("an evicted room that settled goes dormant and comes back with its state when joined")
    func dormantComesBack() throws {
        let d = directory(maxRooms: 1)
        var effects: [DirectoryEffect] = []
        try join(d, "a", client: 1, now: 0, effects: &effects)
        _ = settle(d, "a", at: 80, now: 1, wall: 1001)
        d.leave("a", client: 1, now: 10)
        effects = []
        try join(d, "b", client: 2, now: 11, effects: &effects)
        #expect(effects.first == .evicted("a"))
        #expect(d.dormantNames == ["a"])
        d.leave("b", client: 2, now: 12)

        effects = []
        let back = try join(d, "a", client: 3, now: 13, effects: &effects)
        #expect(effects == [.evicted("b"), .created(room: "a", scene: "ruler", seed: 3)])
        #expect(rulerValue(back) == 80)
        #expect(d.dormantNames == [], "b never settled, so it is not kept")
    }

    @Test("waking a dormant room at the store's cap forgets another dormant room, never the one being woken")
    func wakeOrder() throws {
        // 2 rooms live at most, 2 kept by the store: a and b settle, c evicts a (dormant),
        // then a is joined again. Evicting b to make way puts b beside a among the dormant
        // (1 live + 2 dormant > 2) unless a was taken out first.
        let d = directory(maxRooms: 2, maxStored: 2)
        var effects: [DirectoryEffect] = []
        try visit(d, "a", client: 1, now: 0, wall: 100, settling: 80, effects: &effects)
        try visit(d, "b", client: 2, now: 2, wall: 102, settling: 90, effects: &effects)
        try join(d, "c", client: 3, now: 4, wall: 104, effects: &effects)
        #expect(d.dormantNames == ["a"])

        effects = []
        let a = try join(d, "a", client: 4, now: 5, wall: 105, effects: &effects)
        #expect(effects == [.evicted("b"), .created(room: "a", scene: "ruler", seed: 4)])
        #expect(rulerValue(a) == 80)
        #expect(d.dormantNames == ["b"])
    }

    @Test("beyond the store's cap the dormant room saved longest ago is forgotten")
    func forgetsOldest() throws {
        let d = directory(maxRooms: 2, maxStored: 2)
        var effects: [DirectoryEffect] = []
        for (i, name) in ["a", "b", "c", "d"].enumerated() {
            let t = Double(i) * 10
            try visit(
                d, name, client: UInt64(i + 1), now: t, wall: 100 + t, settling: 80 + Double(i), effects: &effects)
        }
        // a went dormant when c came; c settling made 2 live + 1 dormant > 2: a forgotten. Then b
        // went dormant when d came, and d settling forgot b. The store never held more than 2.
        #expect(effects.filter { if case .forget = $0 { true } else { false } } == [.forget("a"), .forget("b")])
        #expect(d.dormantNames == [])
    }

    @Test("at start the most recent rooms are made, the rest wait dormant; refused rows are named and removed")
    func restores() throws {
        let d = directory(maxRooms: 2, maxStored: 10)
        let source = directory(maxRooms: 1)
        var ignored: [DirectoryEffect] = []
        try join(source, "x", client: 1, now: 0, effects: &ignored)
        guard case .save(let x)? = settle(source, "x", at: 80, now: 0, wall: 500).first else {
            Issue.record("no snapshot to restore")
            return
        }
        let rows = [
            StoredRoom(name: "new", scene: "ruler", snapshot: x.snapshot, updated: 990),
            StoredRoom(name: "bad name", scene: "ruler", snapshot: x.snapshot, updated: 980),
            StoredRoom(name: "mid", scene: "nope", snapshot: x.snapshot, updated: 970),
            StoredRoom(name: "old", scene: "ruler", snapshot: x.snapshot, updated: 960),
            StoredRoom(name: "older", scene: "ruler", snapshot: x.snapshot, updated: 950),
        ]
        let effects = d.restore(rows, now: 0, wall: 1000)
        #expect(d.room("new").map(rulerValue) == 80)
        #expect(d.room("old") != nil)
        #expect(d.dormantNames == ["older"])
        #expect(effects.filter { if case .refused = $0 { true } else { false } }.count == 2)
        #expect(effects.contains(.refused(room: "mid", reason: SceneCatalog.standard.unknown("nope"))))

        // Restored rooms are as idle as their age: "old" (saved 40 s ago) is evicted before "new" (10 s).
        var made: [DirectoryEffect] = []
        try join(d, "fresh", client: 9, now: 1, effects: &made)
        #expect(made.first == .evicted("old"))
    }

    @Test("without a store nothing is kept: an evicted room is gone and settling stores nothing")
    func noStore() throws {
        let d = directory(maxRooms: 1, maxStored: nil)
        var effects: [DirectoryEffect] = []
        try join(d, "a", client: 1, now: 0, effects: &effects)
        #expect(settle(d, "a", at: 80, now: 0, wall: 100) == [])
        d.leave("a", client: 1, now: 1)
        try join(d, "b", client: 2, now: 2, effects: &effects)
        #expect(d.dormantNames == [])
        d.leave("b", client: 2, now: 3)
        let back = try join(d, "a", client: 3, now: 3, effects: &effects)
        #expect(rulerValue(back) == 72.5, "a fresh room: 72.5 kg (WIDGETS.md)")
    }

    @Test("a room shows one scene: naming another is scene_mismatch, an unknown one unknown_scene")
    func scenes() throws {
        let d = directory(maxRooms: 2)
        var effects: [DirectoryEffect] = []
        try join(d, "a", client: 1, now: 0, effects: &effects)
        let (other, _) = d.join("a", scene: "picker", client: 2, now: 1, wall: 1000)
        #expect(throws: ProtocolError.self) { try other.get() }
        if case .failure(let e) = other { #expect(e.code == .sceneMismatch) }
        let (unknown, _) = d.join("b", scene: "nope", client: 2, now: 1, wall: 1000)
        if case .failure(let e) = unknown { #expect(e.code == .unknownScene) } else { Issue.record("joined") }
        let (any, _) = d.join("a", scene: nil, client: 2, now: 1, wall: 1000)
        #expect(try any.get().scene.name == "ruler")
        #expect(d.members(of: "a") == [1, 2])
    }

    @Test("4,400 throwaway rooms (each used once, settled once) cannot push out a room people came back to")
    func throwawayRoomsGoFirst() throws {
        let d = directory(maxRooms: 256, maxStored: 4096)
        var effects: [DirectoryEffect] = []
        try visit(d, "home", client: 1, now: 0, wall: 100, settling: 80, effects: &effects)
        try visit(d, "home", client: 2, now: 2, wall: 102, effects: &effects)  // a second visit: history
        for i in 0..<4400 {
            let name = "t\(i)", t = 10 + Double(i)
            try join(d, name, client: UInt64(10 + i), now: t, wall: 200 + t, effects: &effects)
            effects += settle(d, name, at: 81, now: t, wall: 200 + t)
            d.leave(name, client: UInt64(10 + i), now: t + 0.5)
        }
        let forgotten = effects.compactMap { if case .forget(let name) = $0 { name } else { nil } }
        #expect(!forgotten.contains("home"))
        #expect(forgotten.count == 4401 - 4096, "exactly enough to stay within 4,096 rooms")
        #expect(forgotten.first == "t0", "the throwaway room stored longest ago goes first")
        let back = try join(d, "home", client: 9999, now: 5000, wall: 6000, effects: &effects)
        #expect(rulerValue(back) == 80)
    }

    @Test("embed- rooms (one per <scroll-widget> and page load) are never stored")
    func embedRoomsAreEphemeral() throws {
        let d = directory(maxRooms: 1)
        var effects: [DirectoryEffect] = []
        try join(d, "embed-lq3k-abc123-1", client: 1, now: 0, effects: &effects)
        #expect(settle(d, "embed-lq3k-abc123-1", at: 80, now: 0, wall: 100) == [])
        d.leave("embed-lq3k-abc123-1", client: 1, now: 1)
        try join(d, "other", client: 2, now: 2, effects: &effects)
        #expect(d.dormantNames == [])
        #expect(d.settleAll(wall: 200) == [])
    }

    @Test("new rooms per address: 120 at once, then one a second; joining a room that exists is never limited")
    func creationRate() throws {
        let d = directory(maxRooms: 1000)
        func join(_ name: String, from address: String, now: Double) -> ProtocolError? {
            let (result, _) = d.join(name, scene: "ruler", client: 1, from: address, now: now, wall: 1000)
            if case .failure(let error) = result { return error }
            return nil
        }
        for i in 0..<120 { #expect(join("a\(i)", from: "192.0.2.1", now: 0) == nil) }
        let refused = join("a120", from: "192.0.2.1", now: 0)
        #expect(refused?.code == .rateLimited)
        #expect(refused?.message.contains("too many new rooms from your address") == true)
        #expect(refused?.code.closeCode == 1013, "fatal, try again later")
        #expect(join("a0", from: "192.0.2.1", now: 0) == nil, "an existing room")
        #expect(join("b0", from: "192.0.2.2", now: 0) == nil, "another address")
        #expect(join("a121", from: "192.0.2.1", now: 0.999) != nil)
        #expect(join("a122", from: "192.0.2.1", now: 1.0) == nil, "one token back after 1 s")
    }
}
