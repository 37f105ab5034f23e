import ScrollCore
import Testing

@testable import ScrollServer

// docs/PROTOCOL.md, "Frames": a delta only to a client whose last frame was seq − 1; a frame
// that changes nothing is not sent and counts as received; latest wins, never queued.

@Suite("Send policy: semantics and frames")
struct OutboundFrameTests {
    /// A client that has had semantics and frame `seq`.
    private func caughtUp(_ room: FakeRoom) -> OutboundQueue {
        var q = makeQueue()
        _ = drain(&q, room: room)
        return q
    }

    @Test("semantics are sent again when, and only when, their version changes; the latest only")
    func semanticsVersion() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        #expect(drain(&q, room: room) == ["semantics v1", "presence v1", "bin:full#1"])
        #expect(drain(&q, room: room) == [])
        room.changeSemantics()
        #expect(drain(&q, room: room) == ["semantics v2"])
        room.changeSemantics()
        room.changeSemantics()
        #expect(drain(&q, room: room) == ["semantics v4"])
    }

    @Test("presence is sent after semantics and before the frame whenever someone joins or leaves; the latest only")
    func presenceVersion() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        _ = drain(&q, room: room)
        room.changePresence()
        room.show(seq: 2)
        #expect(drain(&q, room: room) == ["presence v2", "bin:delta#2"])
        room.changePresence()
        room.changePresence()
        room.changeSemantics()
        #expect(drain(&q, room: room) == ["semantics v2", "presence v4"])
    }

    @Test("the applied echo goes just after the next frame sent, the newest only; it waits while no frame goes")
    func appliedEcho() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        q.noteApplied(t: 10, receivedAt: 0)
        // No new frame yet: the echo waits for one.
        #expect(drain(&q, room: room) == [])
        q.noteApplied(t: 12.5, receivedAt: 0)
        room.show(seq: 3)
        #expect(drain(&q, room: room) == ["bin:full#3", #"{"type":"applied","t":12.5}"#])
        q.noteApplied(t: 20, receivedAt: 0)
        room.show(seq: 4)
        #expect(drain(&q, room: room) == ["bin:delta#4", #"{"type":"applied","t":20}"#])
    }

    @Test("each echo says the follow of its own input: the same while a drag lasts, another after, none once let go")
    func echoSaysItsFollow() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        let ruler = LayerFollow(layer: 2, follow: PointerFollow(axis: .x, ratio: 1, range: (-1_234.5)...(-434.5)))
        let dial = LayerFollow(layer: 5, follow: PointerFollow(axis: .y, ratio: -1, range: 0...300))
        var seq: UInt32 = 1
        for (t, follow) in [(10.0, ruler), (12.0, ruler), (14.0, dial), (16.0, nil), (18.0, ruler)] {
            q.noteApplied(t: t, follow: follow, receivedAt: 0)
            seq += 1
            room.show(seq: seq)
            let field = follow.map { f in
                #","follow":{"layer":\#(f.layer),"axis":"\#(f.follow.axis.rawValue)","ratio":\#(JSONValue.format(f.follow.ratio)),"#
                    + #""min":\#(JSONValue.format(f.follow.range.lowerBound)),"max":\#(JSONValue.format(f.follow.range.upperBound))}"#
            }
            #expect(
                drain(&q, room: room).last == #"{"type":"applied","t":\#(JSONValue.format(t))"# + (field ?? "") + "}")
        }
    }

    @Test("the echo comes straight after its frame, before anything queued meanwhile")
    func echoFollowsItsFrame() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        q.noteApplied(t: 30, receivedAt: 0)
        room.show(seq: 2)
        #expect(describe(q.next(from: room, theme: .light, now: 0)) == "bin:delta#2")
        q.enqueueControl("error x")
        q.enqueue(batch("A"), now: 0)
        #expect(drain(&q, room: room) == [#"{"type":"applied","t":30}"#, "error x", "events A"])
    }

    @Test("an input that changed nothing to see gets no echo: the frame drawn after it is the same as the last")
    func appliedEchoDroppedWhenNothingChanged() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        q.noteApplied(t: 12.5, receivedAt: 0)
        room.show(seq: 2, changed: false)
        // Not sent (it counts as received), and the echo goes with it …
        #expect(drain(&q, room: room) == ["nothing"])
        // … rather than waiting for someone else's change to time it by.
        room.show(seq: 3)
        #expect(drain(&q, room: room) == ["bin:delta#3"])
    }

    @Test("an input applied after a frame went is echoed after the next frame, not the one already sent")
    func newerInputAfterFrame() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        q.noteApplied(t: 100, receivedAt: 0)
        room.show(seq: 2)
        #expect(describe(q.next(from: room, theme: .light, now: 0)) == "bin:delta#2")
        // Input t = 116 lands before the echo of 100 is written: frame 2 did not show it.
        q.noteApplied(t: 116, receivedAt: 0)
        room.show(seq: 3)
        #expect(
            drain(&q, room: room) == [
                #"{"type":"applied","t":100}"#, "bin:delta#3", #"{"type":"applied","t":116}"#,
            ])
    }

    @Test("after its first frame, frames take turns with events and semantics: a busy room never starves them")
    func framesTakeTurns() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        q.enqueue(batch("A"), now: 0)
        q.enqueue(batch("B"), now: 0)
        room.changeSemantics()
        room.show(seq: 2)
        #expect(drain(&q, room: room) == ["events A", "bin:delta#2", "events B", "semantics v2"])
        // One write per tick, and every tick brings an events batch and a frame: still a frame
        // every other write, never only events.
        var frames = 0
        for tick in 3...40 {
            q.enqueue(batch("\(tick)"), now: 0)
            room.show(seq: UInt32(tick))
            if case .write(_, .binary) = q.next(from: room, theme: .light, now: 0) { frames += 1 }
        }
        #expect(frames >= 19, "frames written in 38 single-write ticks: \(frames)")
    }

    @Test("after a theme change, the new theme's full frame still takes its turn with queued events")
    func themeChangeKeepsTurns() {
        let room = FakeRoom(seq: 1)
        room.show(seq: 7, theme: .dark)
        var q = caughtUp(room)
        q.restartFrames()
        q.enqueue(batch("A"), now: 0)
        q.enqueue(batch("B"), now: 0)
        #expect(drain(&q, room: room, theme: .dark) == ["events A", "bin:full#7 dark", "events B"])
    }

    @Test("a theme change restarts the frames: the next one is full, in the new theme")
    func themeChange() {
        let room = FakeRoom(seq: 5)
        room.show(seq: 2, theme: .dark)
        var q = caughtUp(room)
        q.restartFrames()
        #expect(drain(&q, room: room, theme: .dark) == ["bin:full#2 dark"])
        room.show(seq: 3, theme: .dark)
        #expect(drain(&q, room: room, theme: .dark) == ["bin:delta#3 dark"])
    }

    @Test("the first frame is full, even one that changes nothing")
    func firstFrameFull() {
        let room = FakeRoom()
        room.show(seq: 7, changed: false)
        var q = makeQueue()
        #expect(drain(&q, room: room) == ["semantics v1", "presence v1", "bin:full#7"])
    }

    @Test("a client whose last frame was seq − 1 gets the delta")
    func continuousDeltas() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        room.show(seq: 2)
        #expect(drain(&q, room: room) == ["bin:delta#2"])
        room.show(seq: 3)
        #expect(drain(&q, room: room) == ["bin:delta#3"])
    }

    @Test("a frame that changes nothing is not sent, but counts as received")
    func unchangedSkipped() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        room.show(seq: 2, changed: false)
        #expect(drain(&q, room: room) == ["nothing"])
        #expect(q.frameSeq == 2)
        let owes = q.owesMore(renderingFrom: room, theme: .light)
        #expect(!owes)
        room.show(seq: 3)
        #expect(drain(&q, room: room) == ["bin:delta#3"])
    }

    @Test("latest wins: a client that missed frames gets only the newest, in full, then deltas again")
    func gapGetsFull() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        room.show(seq: 2)
        room.show(seq: 3)
        room.show(seq: 4, changed: false)
        #expect(drain(&q, room: room) == ["bin:full#4"])
        room.show(seq: 5)
        #expect(drain(&q, room: room) == ["bin:delta#5"])
    }

    @Test("each client is sent its own theme's frame")
    func theme() {
        let room = FakeRoom(seq: 1)
        room.show(seq: 3, theme: .dark)
        var q = makeQueue()
        #expect(drain(&q, room: room, theme: .dark) == ["semantics v1", "presence v1", "bin:full#3 dark"])
    }
}
