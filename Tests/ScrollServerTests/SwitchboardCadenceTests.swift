import ScrollCore
import Testing

@testable import ScrollServer

/// The frame clock on a fake clock (docs/PROTOCOL.md, "Frame cadence"): a moving room sends at most
/// one frame per tick period, an input's frame goes at once and the room's next tick takes its
/// phase from it; each chance to write is one write.
@Suite("Switchboard: frame cadence on a fake clock")
struct SwitchboardCadenceTests {
    /// A browser's moves: one per display frame (60 Hz), each a little early or late (ms).
    static let jitter = [0, 1.5, -1.5, 1, -1, 2, -2]

    /// A board whose clients `ids` joined `room` (the ruler scene) and read what they were sent.
    private func board(_ ids: UInt64..., room: String = "r", scene: String = "ruler") throws -> BoardHarness {
        let h = try BoardHarness()
        for id in ids {
            h.join(id, room: room, scene: scene)
            _ = h.read(id)
        }
        return h
    }

    /// Client 1 holds the ruler and moves it once per 1/60 s (± `jitter`) for `seconds`, with the
    /// tick timer firing whenever it is due before the next move; clients 1 and 2 read after every
    /// move and tick. Returns the fake times at which each received a frame, the ticks fired, and
    /// whether every move's frame and its echo came in the read right after the move.
    private func drag(_ h: BoardHarness, seconds: Int) -> (
        frames: [UInt64: [Double]], ticks: Int, movesAnsweredAtOnce: Bool
    ) {
        var frames: [UInt64: [Double]] = [1: [], 2: []]
        var ticks = 0
        var answered = true
        func readAll() {
            for id: UInt64 in [1, 2] {
                frames[id]! += h.read(id).filter { $0.contains("#") }.map { _ in h.clock.now }
            }
        }
        h.pointer(1, .down, x: 300, t: h.clock.now * 1000)
        readAll()
        let start = h.clock.now
        for k in 1...(60 * seconds) {
            let at = start + Double(k) / 60 + Self.jitter[k % Self.jitter.count] / 1000
            while h.fireTick(by: at) {
                ticks += 1
                readAll()
            }
            h.clock.advance(by: at - h.clock.now)
            h.pointer(1, .move, x: 300 - Double(k), t: at * 1000)
            let sent = h.read(1)
            // The move's frame, then its echo: written at the move's own time.
            answered = answered && zip(sent, sent.dropFirst()).contains { $0.contains("#") && $1 == "applied" }
            frames[1]! += sent.filter { $0.contains("#") }.map { _ in h.clock.now }
            frames[2]! += h.read(2).filter { $0.contains("#") }.map { _ in h.clock.now }
        }
        return (frames, ticks, answered)
    }

    @Test(
        "a 60 Hz drag (moves ± 2 ms): each client receives at most 60 frames a second, one per move, every move's frame and echo at once"
    )
    func sixtyHertzDrag() throws {
        let h = try board(1, 2)
        let run = drag(h, seconds: 3)
        #expect(run.movesAnsweredAtOnce)
        // The readout rolls all through the drag, yet no tick fires: each move's frame is its period's.
        #expect(run.ticks == 0)
        for id: UInt64 in [1, 2] {
            let perSecond = (1...2).map { s in run.frames[id]!.filter { $0 >= Double(s) && $0 < Double(s + 1) }.count }
            #expect(perSecond.allSatisfy { $0 <= 60 && $0 >= 59 }, "client \(id): \(perSecond) frames a second")
        }
    }

    @Test(
        "the tick takes its phase from the input: after the last move, 1.25 periods to the next frame, then one period each"
    )
    func phaseFromInput() throws {
        let h = try board(1)
        h.pointer(1, .down, x: 300, t: 0)
        for k in 1...5 {
            h.clock.advance(by: 1.0 / 60)
            h.pointer(1, .move, x: 300 - 4 * Double(k), t: h.clock.now * 1000)
        }
        _ = h.read(1)
        let lastMove = h.clock.now
        // The readout still rolls after the finger stops: the frame clock runs on.
        #expect(h.board.directory.room("r")!.needsTick)
        #expect(h.wire.tickDue.map { abs($0 - (lastMove + 1.25 / 60)) < 1e-9 } == true)
        // The ticks' times (the readout's rolls go on tracks: a frame only where one starts).
        var tickTimes: [Double] = []
        h.runTicks(readers: [1], limit: 4) { _, _ in tickTimes.append(h.clock.now) }
        let times = [lastMove] + tickTimes
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1) * 60 }
        #expect(gaps.count == 4)
        #expect(zip(gaps, [1.25, 1, 1, 1]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(gaps) periods")
    }

    @Test(
        "rooms keep their own phase: a 60 Hz drag in one room never holds back another room's moving dot (a frame every 1/60 s)"
    )
    func roomsOwnPhase() throws {
        let h = try board(1, 2, room: "b")
        h.join(3, room: "a", scene: "carousel")
        h.join(4, room: "a", scene: "carousel")
        _ = (h.read(3), h.read(4))
        // Room a's client 3 hovers after every tick (every glide is a track now; a dot moved by hover
        // is drawn at the room's next tick, for client 4 to see), so room a has a frame to send every tick.
        var hovers = 0.0
        func hover() {
            hovers += 1
            h.send(3, ClientMessage.hover(at: Point(x: 100 + hovers, y: 50), t: 1000 + hovers).encoded())
        }
        hover()
        var dotFrames: [Double] = []
        // Room b's drag starts 7 ms into room a's tick period; room a's client reads at every tick.
        let start = h.clock.now
        var k = 0
        h.pointer(1, .down, x: 300, t: 0)
        while h.clock.now - start < 1 {
            k += 1
            let at = start + 0.007 + Double(k) / 60 + Self.jitter[k % Self.jitter.count] / 1000
            while h.fireTick(by: at) {
                dotFrames += h.read(3).filter { $0.contains("#") }.map { _ in h.clock.now }
                _ = h.read(4)
                hover()
            }
            h.clock.advance(by: at - h.clock.now)
            h.pointer(1, .move, x: 300 - Double(k), t: at * 1000)
            _ = (h.read(1), h.read(2))
            #expect(h.read(3).isEmpty, "room b's move sends room a nothing")
        }
        let gaps = zip(dotFrames.dropFirst(), dotFrames).map { ($0 - $1) * 60 }
        #expect(gaps.count >= 55)
        #expect(gaps.allSatisfy { abs($0 - 1) < 1e-6 }, "\(gaps) periods")
    }

    @Test("one write per client per tick: a fling's events and frame leave together, nothing owed after")
    func oneWritePerTick() throws {
        let h = try board(1, 2, scene: "picker")
        h.fling(1, y: BoardHarness.pickerY)
        _ = (h.read(1), h.read(2))
        var ticks = 0, withEvents = 0, withFrames = 0
        while ticks < 600, h.fireTick() {
            ticks += 1
            for id: UInt64 in [1, 2] {
                let write = h.write(id)
                #expect(!h.board.owesMore(id), "tick \(ticks): more than one write")
                let frame = write.contains { $0.hasPrefix("delta#") }
                if frame { withFrames += 1 }
                if write.contains("events") {
                    withEvents += 1
                    #expect(frame, "tick \(ticks): events without their frame: \(write)")
                }
            }
        }
        // The glide is a track: its count's rolls and the rest are the frames (the rest's with the
        // final value: events and frame in one write).
        #expect(withFrames >= 2 * 3, "\(withFrames) writes with a frame")
        #expect(withEvents > 0, "ticks whose events went with their frame: \(withEvents) of \(2 * ticks) writes")
    }
}
