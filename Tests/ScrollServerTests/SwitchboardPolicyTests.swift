import ScrollCore
import Testing

@testable import ScrollServer

/// The server's policies over several clients, on a fake clock and a fake wire: what each client
/// is sent, tick by tick (docs/PROTOCOL.md, "Order per connection" and "Sharing a room").
@Suite("Switchboard policies on a fake clock")
struct SwitchboardPolicyTests {
    @Test("a hover flood costs one frame, at the next tick: 500 hovers, one tick asked for, one frame to the others")
    func hoverCoalescing() throws {
        let h = try BoardHarness()
        h.join(1)
        h.join(2)
        #expect(h.read(1) == ["welcome", "semantics", "presence", "frame#1"])
        #expect(h.read(2) == ["welcome", "semantics", "presence", "frame#1"])
        let ticksBefore = h.wire.ticksRequested.count
        for i in 0..<500 {
            h.send(1, ClientMessage.hover(at: Point(x: 100 + Double(i) * 0.5, y: 50), t: 2000 + Double(i)).encoded())
        }
        #expect(h.wire.ticksRequested.count == ticksBefore + 1, "one tick for the whole flood")
        #expect(h.wire.ticksRequested.last == 1.0 / 60)
        #expect(h.read(2) == [], "the dot waits for the tick")
        h.clock.advance(by: 1.0 / 60)
        h.board.tick()
        #expect(h.read(2) == ["delta#2"])
        #expect(h.wire.ticksRequested.count == ticksBefore + 1, "nothing moves after it: no further tick")
    }

    @Test("a client that stops reading changes nothing for the others; 2 s without taking anything, it is closed")
    func stalledClient() throws {
        // The same fling twice: once with a third client that never reads, once without.
        func run(withStalled: Bool) throws -> (reader: [String], stalled: [String], ticks: Int) {
            let h = try BoardHarness(slowReader: SlowReaderRule(stallTimeout: 2))
            h.join(1, scene: "picker")
            h.join(2, scene: "picker")
            if withStalled { h.join(3, scene: "picker") }
            _ = h.read(1)
            var reader = h.read(2)
            reader = []
            h.fling(1, y: BoardHarness.pickerY)
            _ = h.read(1)
            reader += h.read(2)
            let ticks = h.runTicks(readers: [1, 2]) { id, sent in if id == 2 { reader += sent } }
            return (reader, withStalled ? h.read(3) : [], ticks)
        }
        let alone = try run(withStalled: false)
        let beside = try run(withStalled: true)
        #expect(alone.ticks > 180, "the picker flings for more than 3 s")
        #expect(beside.ticks == alone.ticks)
        #expect(beside.reader.filter { $0 != "presence" } == alone.reader.filter { $0 != "presence" })
        // The glide's track, its events ahead, its count's rolls, its rest and final value.
        #expect(beside.reader.filter { $0.hasPrefix("delta#") }.count >= 3 && beside.reader.contains("events"))
        #expect(!beside.reader.contains { $0.hasPrefix("fatal") })
        #expect(beside.stalled.suffix(2) == ["fatal slow_consumer", "close 1008"])
    }

    @Test("semantics follow a moving picker at most every 0.25 s of scene time: every 15th–16th tick at 60 Hz")
    func semanticsThrottle() throws {
        // A finger drags the picker 3 pt a tick for 3 s: its events stream (a glide's go ahead,
        // and its semantics wait for the rest: SwitchboardEventsAheadTests), a tick every 3⅓ ticks.
        let h = try BoardHarness()
        h.join(1, scene: "picker")
        _ = h.read(1)
        h.pointer(1, .down, x: 380, y: BoardHarness.pickerY, t: 0)
        var semanticsAt: [Int] = []
        for tick in 1...180 {
            h.clock.advance(by: 1.0 / 60)
            h.pointer(1, .move, x: 380 - 3 * Double(tick), y: BoardHarness.pickerY, t: Double(tick) * 1000 / 60)
            h.fireTick(by: h.clock.now)
            if h.read(1).contains("semantics") { semanticsAt.append(tick) }
        }
        let gaps = zip(semanticsAt.dropFirst(), semanticsAt).map { $0 - $1 }
        // 0.25 s is 15 ticks of 1/60 s (or 16, where 15 × 1/60 falls a hair short in floating
        // point); a check that finds the value unchanged sends nothing, so a gap can be twice that.
        #expect(gaps.allSatisfy { $0 >= 15 }, "\(gaps)")
        #expect(gaps.filter { $0 == 15 || $0 == 16 }.count >= 5, "\(gaps)")
    }

    @Test(
        "a value that comes to rest is sent at once, not at the next 0.25 s check: a 0.2 s key step's semantics at its 12th tick (the first at or after 0.2 s)"
    )
    func semanticsAtRest() throws {
        let h = try BoardHarness()
        h.join(1)
        _ = h.read(1)
        h.send(1, ClientMessage.key(key: "ArrowRight", widget: nil, t: 1).encoded())
        var reads: [[String]] = [h.read(1)]
        var times = [h.clock.now]
        h.runTicks(readers: [1]) { _, sent in
            reads.append(sent)
            times.append(h.clock.now)
        }
        let at = reads.firstIndex { $0.contains("semantics") }
        // The key's ease lasts 0.2 s (WIDGETS.md). The key's own frame went at once, so the first
        // tick comes 1.25 periods after it (1/48 s), then one every 1/60 s: the 12th is at
        // 1/48 + 11/60 = 0.2042 s, the first at or after 0.2 s, before the 0.25 s check would come.
        #expect(at == 12, "\(reads)")
        #expect(at.map { abs(times[$0] - (1.0 / 48 + 11.0 / 60)) < 1e-9 } == true, "\(times)")
    }

    @Test("a settled room is handed to the store once per settling, within 50 ms, in one batch")
    func settledRoomsAreBatched() throws {
        let store = InMemoryRoomStore()
        let scheduler = ManualScheduler()
        let h = try BoardHarness(store: store, scheduler: scheduler)
        h.join(1, room: "a")
        h.join(2, room: "b")
        h.send(1, BoardHarness.setValue(80, t: 1))
        h.send(2, BoardHarness.setValue(90, t: 1))
        h.runTicks(readers: [1, 2])
        #expect(store.batches.isEmpty, "nothing is written before the delay")
        scheduler.advance(by: 0.05)
        #expect(store.batches.count == 1)
        #expect(store.batches.first?.map(\.name) == ["a", "b"])
        h.send(1, BoardHarness.setValue(80, t: 2))
        h.runTicks(readers: [1, 2])
        scheduler.advance(by: 1)
        #expect(store.batches.count == 1, "the same value again: nothing new to store")
    }

    @Test(
        "a burst a client may send (2,000 wheels across the whole picker) closes no reader; each learns every crossing and the final tick"
    )
    func pickerBurst() throws {
        let h = try BoardHarness()
        for id: UInt64 in 1...3 { h.join(id, scene: "picker") }
        for id: UInt64 in 1...3 { _ = h.read(id) }
        // Each wheel swings the picker across its whole range (0 … 100 and back): 100 ticks at one
        // instant. 2,000 in one second is the rate limit's burst (twice 1,000 a second). The
        // readers read nothing until the burst is over.
        var crossings = 0
        for i in 0..<2000 {
            let dx = i % 2 == 0 ? 100_000.0 : -100_000.0
            h.send(1, ClientMessage.wheel(.init(x: 195, y: 95, dx: dx, dy: 0, t: Double(i))).encoded())
            h.clock.advance(by: 0.0005)
            crossings += 100
        }
        h.runTicks(readers: [])
        for id: UInt64 in 2...3 {
            let sent = h.readEvents(id)
            #expect(!sent.closed, "reader \(id) was closed")
            #expect(sent.haptics == crossings, "reader \(id): every crossing counted")
            #expect(sent.lastMoved == 0, "the last wheel went back to 0")
            // 32 moved and 32 haptic at most (EventBudget), with the wheel's value: ~5 KB, where
            // every crossing of one swing would be ~14 KB.
            #expect(sent.largestMessage <= 6 * 1024, "one message's events: \(sent.largestMessage) bytes")
        }
    }

    @Test("hello is due within 10 s: at 9 s the connection waits, at 10 s it is closed with not_ready")
    func helloDeadline() throws {
        let h = try BoardHarness()
        h.board.connected(1)
        #expect(h.wire.sweepsRequested == [1], "a connection without hello starts the 1 s sweep")
        h.runSweeps(for: 9)
        #expect(h.read(1) == [])
        h.runSweeps(for: 1)
        #expect(h.read(1) == ["fatal not_ready", "close 1008"])
        h.join(2)
        h.runSweeps(for: 20)
        #expect(h.read(2).contains("welcome") && !h.board.isClosing(2), "a client that said hello stays")
    }

    @Test(
        "at most 256 connections wait for hello at once: the 257th is refused server_full (1013); a hello frees a place"
    )
    func unjoinedCap() throws {
        let h = try BoardHarness()
        for id: UInt64 in 1...256 { h.board.connected(id) }
        h.board.connected(257)
        #expect(h.read(257) == ["fatal server_full", "close 1013"])
        h.board.closed(257)
        h.send(1, ClientMessage.hello(.init(room: "r", scene: "ruler")).encoded())
        h.board.connected(258)
        #expect(!h.board.isClosing(258))
        #expect((1...256).allSatisfy { !h.board.isClosing($0) })
    }

    @Test("a widget held by a pointer quiet for 30 s is let go as if lifted there; then another can take it")
    func quietHolder() throws {
        let h = try BoardHarness()
        h.join(1)
        h.join(2)
        h.pointer(1, .down, x: 200, t: 1000)
        h.clock.advance(by: 0.1)
        h.pointer(1, .move, x: 150, t: 1100)  // 50 pt: half a kilogram (10 pt per 0.1 kg)
        _ = h.read(1)
        _ = h.read(2)
        // Another finger is ignored while the first holds the ruler (first down wins).
        h.pointer(2, .down, x: 300, t: 5000)
        h.pointer(2, .move, x: 100, t: 5100)
        h.pointer(2, .up, x: 100, t: 5200)
        h.runTicks(readers: [])
        #expect(h.lastFinalValue(2) == nil, "the second finger moved nothing")
        // The holder's last message came at 0.1 s.
        h.runSweeps(for: 0.1 + 29.9 - h.clock.now)
        #expect(h.board.clients[1]?.session.holdsPointers == true, "29.9 s quiet: still held")
        h.runSweeps(for: 0.1)
        #expect(h.board.clients[1]?.session.holdsPointers == false, "30 s quiet: let go")
        h.runTicks(readers: [])
        #expect(h.lastFinalValue(2) == 73.0, "rests where the finger left it, 72.5 + 0.5 kg: no momentum after 30 s")
        // Now the second client's drag takes the ruler: 100 pt left is +1.0 kg.
        h.pointer(2, .down, x: 300, t: 40_000)
        h.clock.advance(by: 0.2)
        h.pointer(2, .move, x: 200, t: 40_200)
        h.clock.advance(by: 0.2)
        h.pointer(2, .up, x: 200, t: 40_400)
        h.runTicks(readers: [])
        #expect(h.lastFinalValue(2) == 74.0)
    }
}
