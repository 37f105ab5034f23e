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
            h.send(1, #"{"type":"hover","x":\#(100 + Double(i) * 0.5),"y":50,"t":\#(2000 + Double(i))}"#)
        }
        #expect(h.wire.ticksRequested.count == ticksBefore + 1, "one tick for the whole flood")
        #expect(h.wire.ticksRequested.last == 1.0 / 60)
        #expect(h.read(2) == [], "the dot waits for the tick")
        h.clock.advance(by: 1.0 / 60)
        h.board.tick()
        #expect(h.read(2) == ["delta#2"])
        #expect(h.wire.ticksRequested.count == ticksBefore + 1, "nothing moves after it: no further tick")
    }

    @Test("a client that stops reading changes nothing for the others; past 8 events it is closed with slow_consumer")
    func stalledClient() throws {
        // The same fling twice: once with a third client that never reads, once without.
        func run(withStalled: Bool) throws -> (reader: [String], stalled: [String], ticks: Int) {
            let h = try BoardHarness(maxQueuedEvents: 8)
            h.join(1)
            h.join(2)
            if withStalled { h.join(3) }
            _ = h.read(1)
            var reader = h.read(2)
            reader = []
            h.fling(1)
            _ = h.read(1)
            reader += h.read(2)
            let ticks = h.runTicks(readers: [1, 2]) { id, sent in if id == 2 { reader += sent } }
            return (reader, withStalled ? h.read(3) : [], ticks)
        }
        let alone = try run(withStalled: false)
        let beside = try run(withStalled: true)
        #expect(alone.ticks > 30, "the ruler flings for more than half a second")
        #expect(beside.ticks == alone.ticks)
        #expect(beside.reader.filter { $0 != "presence" } == alone.reader.filter { $0 != "presence" })
        #expect(beside.reader.filter { $0.hasPrefix("delta#") }.count >= alone.ticks, "a frame every tick")
        #expect(!beside.reader.contains { $0.hasPrefix("fatal") })
        #expect(beside.stalled.suffix(2) == ["fatal slow_consumer", "close 1008"])
    }

    @Test("semantics follow a moving ruler at most every 0.25 s of scene time: every 15th–16th tick at 60 Hz")
    func semanticsThrottle() throws {
        let h = try BoardHarness()
        h.join(1)
        _ = h.read(1)
        h.fling(1)
        var semanticsAt: [Int] = []
        var tick = 0
        h.runTicks(readers: [1]) { _, sent in
            tick += 1
            if sent.contains("semantics") { semanticsAt.append(tick) }
        }
        let gaps = zip(semanticsAt.dropFirst(), semanticsAt).map { $0 - $1 }
        // 0.25 s is 15 ticks of 1/60 s (or 16, where 15 × 1/60 falls a hair short in floating
        // point); a check that finds the value unchanged sends nothing, so a gap can be twice that.
        #expect(gaps.allSatisfy { $0 >= 15 }, "\(gaps)")
        #expect(gaps.filter { $0 == 15 || $0 == 16 }.count >= 5, "\(gaps)")
    }

    @Test(
        "a value that comes to rest is sent at once, not at the next 0.25 s check: a 0.2 s key step's semantics at its 13th tick (0.2 s at 60 Hz)"
    )
    func semanticsAtRest() throws {
        let h = try BoardHarness()
        h.join(1)
        _ = h.read(1)
        h.send(1, #"{"type":"key","key":"ArrowRight","t":1}"#)
        var reads: [[String]] = [h.read(1)]
        h.runTicks(readers: [1]) { _, sent in reads.append(sent) }
        let at = reads.firstIndex { $0.contains("semantics") }
        // The key's ease lasts 0.2 s (WIDGETS.md); twelve ticks of 1/60 s add up to a hair less in
        // floating point, so it ends at the 13th: before the 0.25 s check (15th) would come.
        #expect(at == 13, "\(reads)")
    }

    @Test("a settled room is handed to the store once per settling, within 50 ms, in one batch")
    func settledRoomsAreBatched() throws {
        let store = InMemoryRoomStore()
        let scheduler = ManualScheduler()
        let h = try BoardHarness(store: store, scheduler: scheduler)
        h.join(1, room: "a")
        h.join(2, room: "b")
        h.send(1, #"{"type":"action","action":"setValue","args":{"value":80},"t":1}"#)
        h.send(2, #"{"type":"action","action":"setValue","args":{"value":90},"t":1}"#)
        h.runTicks(readers: [1, 2])
        #expect(store.batches.isEmpty, "nothing is written before the delay")
        scheduler.advance(by: 0.05)
        #expect(store.batches.count == 1)
        #expect(store.batches.first?.map(\.name) == ["a", "b"])
        h.send(1, #"{"type":"action","action":"setValue","args":{"value":80},"t":2}"#)
        h.runTicks(readers: [1, 2])
        scheduler.advance(by: 1)
        #expect(store.batches.count == 1, "the same value again: nothing new to store")
    }
}
