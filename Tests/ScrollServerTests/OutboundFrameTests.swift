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

    @Test("the applied echo goes just before the next frame sent, the newest only; it waits while no frame goes")
    func appliedEcho() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        q.noteApplied(t: 10)
        // No new frame yet: the echo waits for one.
        #expect(drain(&q, room: room) == [])
        q.noteApplied(t: 12.5)
        room.show(seq: 2, changed: false)
        // A frame that changes nothing is not sent (it counts as received), so neither is the echo.
        #expect(drain(&q, room: room) == ["nothing"])
        room.show(seq: 3)
        #expect(drain(&q, room: room) == [#"{"type":"applied","t":12.5}"#, "bin:delta#3"])
        q.noteApplied(t: 20)
        room.show(seq: 4)
        #expect(drain(&q, room: room) == [#"{"type":"applied","t":20}"#, "bin:delta#4"])
    }

    @Test("the frame picked with the echo follows it even when a newer one is rendered in between; then a delta")
    func appliedFrameIsKept() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        q.noteApplied(t: 30)
        room.show(seq: 2)
        #expect(describe(q.next(from: room, theme: .light)) == #"{"type":"applied","t":30}"#)
        // A tick renders frame 3 before the next writable callback.
        room.show(seq: 3)
        #expect(drain(&q, room: room) == ["bin:delta#2", "bin:delta#3"])
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
        #expect(!q.wantsWritable(room: room, theme: .light))
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
