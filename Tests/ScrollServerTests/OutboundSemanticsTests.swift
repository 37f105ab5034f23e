import ScrollCore
import Testing

@testable import ScrollServer

// docs/PROTOCOL.md, `semantics`: a client that has the room's version before the current one is
// sent what changed (the room's patch, when it has one); anyone else the whole message.

@Suite("Send policy: semantics patches")
struct OutboundSemanticsTests {
    /// A client that has had semantics v1, presence and frame 1.
    private func caughtUp(_ room: FakeRoom) -> OutboundQueue {
        var q = makeQueue()
        #expect(drain(&q, room: room) == ["semantics v1", "presence v1", "bin:full#1"])
        return q
    }

    @Test("a client one version behind gets the patch; two behind, the whole message")
    func oneBehind() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        room.changeSemantics(patch: true)
        #expect(drain(&q, room: room) == ["semantics v1→v2"])
        room.changeSemantics(patch: true)
        room.changeSemantics(patch: true)
        #expect(drain(&q, room: room) == ["semantics v4"])
        room.changeSemantics(patch: true)
        #expect(drain(&q, room: room) == ["semantics v4→v5"])
    }

    @Test("a newcomer gets the whole message, though the room has a patch")
    func newcomer() {
        let room = FakeRoom(seq: 1)
        room.changeSemantics(patch: true)
        var q = makeQueue()
        #expect(drain(&q, room: room) == ["semantics v2", "presence v1", "bin:full#1"])
    }

    @Test("a client reading another room gets the whole message, at the same version or one on")
    func afterReset() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        // Presence and the full frame go again too (frames take turns: OutboundFrameTests).
        func semantics(_ sent: [String]) -> [String] { sent.filter { $0.hasPrefix("semantics") } }
        room.changeSemantics(patch: true)
        q.readsAnotherRoom()
        #expect(semantics(drain(&q, room: room)) == ["semantics v2"])
        q.readsAnotherRoom()
        room.changeSemantics(patch: true)
        #expect(semantics(drain(&q, room: room)) == ["semantics v3"])
        // Read from here on, the next change is a patch again.
        room.changeSemantics(patch: true)
        #expect(drain(&q, room: room) == ["semantics v3→v4"])
    }

    @Test("no patch (the widget list changed): the whole message, also to a client one behind")
    func noPatch() {
        let room = FakeRoom(seq: 1)
        var q = caughtUp(room)
        room.changeSemantics(patch: false)
        #expect(drain(&q, room: room) == ["semantics v2"])
    }
}
