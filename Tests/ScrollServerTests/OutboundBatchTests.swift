import ScrollCore
import Testing

@testable import ScrollServer

// docs/PROTOCOL.md, "Order per connection": everything a client is owed when it can write leaves
// in one write, the messages in the order `next` gives them one by one.

@Suite("Send policy: one write per chance to write")
struct OutboundBatchTests {
    /// One write: its messages as `describe` prints them, joined by " | ".
    private func write(
        _ queue: inout OutboundQueue, room: FakeRoom?, maxBytes: Int = OutboundQueue.maxBatchBytes, now: Double = 0
    ) -> String {
        var batch: [OutboundMessage] = []
        queue.nextBatch(from: room, theme: .light, now: now, maxBytes: maxBytes, into: &batch)
        return batch.map { describe(.write($0.payload, $0.kind)) }.joined(separator: " | ")
    }

    @Test("a new client's welcome, semantics, presence and first frame leave in one write")
    func newClient() {
        let room = FakeRoom(seq: 4)
        var q = makeQueue()
        q.enqueueControl("welcome", always: true)
        #expect(write(&q, room: room) == "welcome | semantics v1 | presence v1 | bin:full#4")
        let owes = q.owesMore(renderingFrom: room, theme: .light)
        #expect(!owes)
        #expect(write(&q, room: room) == "")
    }

    @Test("a tick's events, semantics and frame, and the echo of the input it shows, in one write")
    func tickInOneWrite() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        _ = drain(&q, room: room)
        q.enqueue(batch("A"), now: 0)
        q.noteApplied(t: 7, receivedAt: 0)
        room.changeSemantics()
        room.show(seq: 2)
        #expect(write(&q, room: room) == #"events A | bin:delta#2 | {"type":"applied","t":7} | semantics v2"#)
        let owes = q.owesMore(renderingFrom: room, theme: .light)
        #expect(!owes)
    }

    @Test("the echo carries t as the client wrote it, its follow after it; the newest input's only")
    func echoAsWritten() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        _ = drain(&q, room: room)
        let ruler = LayerFollow(layer: 2, follow: PointerFollow(axis: .x, ratio: 1, range: -600...400))
        q.noteApplied(t: 7, follow: ruler, text: NumberText("7.000"), receivedAt: 0)
        q.noteApplied(t: 8.5, follow: ruler, text: NumberText("8.50"), receivedAt: 0.001)
        room.show(seq: 2)
        #expect(
            write(&q, room: room)
                == #"bin:delta#2 | {"type":"applied","t":8.50,"follow":{"layer":2,"axis":"x","ratio":1,"min":-600,"max":400}}"#
        )
    }

    @Test("a write holds what `next` would have given one by one, in the same order, whatever is queued")
    func sameOrderAsOneByOne() {
        func load(_ q: inout OutboundQueue, _ room: FakeRoom) {
            q.enqueue(batch("A"), now: 0)
            q.enqueuePong("pong 1")
            q.enqueue(batch("B"), now: 0)
            q.enqueueControl("welcome", always: true)
            q.enqueueControl("error 1")
            q.noteApplied(t: 3, receivedAt: 0)
        }
        let one = FakeRoom(seq: 1)
        let other = FakeRoom(seq: 1)
        var single = makeQueue()
        var batched = makeQueue()
        load(&single, one)
        load(&batched, other)
        #expect(write(&batched, room: other) == drain(&single, room: one).joined(separator: " | "))
        #expect(batched.sent == single.sent)
    }

    @Test("a write stops before the close: the fatal error in one write, the close at the next chance")
    func stopsBeforeClose() {
        var q = makeQueue()
        q.enqueueControl("welcome", always: true)
        // The events queued before it never go: after the welcome come the error and the close.
        q.enqueue(batch("A"), now: 0)
        let queued = q.enqueueFatal(ProtocolError(.serverFull, "full"))
        #expect(queued && !q.closeIsNext)
        let room = FakeRoom(seq: 1)
        #expect(write(&q, room: room) == "welcome | fatal server_full")
        #expect(q.closeIsNext && q.owesMore(renderingFrom: room, theme: .light))
        #expect(write(&q, room: room) == "")
        #expect(describe(q.next(from: room, theme: .light, now: 0)) == "close 1013 server_full")
    }

    @Test(
        "a write stops taking messages once it holds maxBytes: 600 + 400 B reach 1,000, the rest go at the next chance")
    func boundedBytes() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        q.enqueue(batch("A", bytes: 600), now: 0)
        q.enqueue(batch("B", bytes: 400), now: 0)
        q.enqueue(batch("C", bytes: 1), now: 0)
        let first = write(&q, room: room, maxBytes: 1000)
        #expect(first.split(separator: "|").count == 2 && first.hasPrefix("events A"))
        let owes = q.owesMore(renderingFrom: room, theme: .light)
        #expect(owes)
        #expect(write(&q, room: room, maxBytes: 1000) == "events C | semantics v1 | presence v1 | bin:full#1")
    }

    @Test("one message longer than maxBytes still goes, alone")
    func longMessageAlone() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        q.enqueue(batch("A", bytes: 2000), now: 0)
        q.enqueue(batch("B"), now: 0)
        let first = write(&q, room: room, maxBytes: 1000)
        #expect(first.hasPrefix("events A") && !first.contains("|"))
        #expect(OutboundQueue.maxBatchBytes == 64 * 1024)
    }

    @Test("a write holds the room's own buffers: nothing copied for frames, events, semantics and presence")
    func sharedBuffers() {
        let room = FakeRoom(seq: 1)
        let events = batch("A")
        var q = makeQueue()
        q.enqueue(events, now: 0)
        var written: [OutboundMessage] = []
        q.nextBatch(from: room, theme: .light, now: 0, into: &written)
        #expect(written.count == 4)
        #expect(written[0].payload === events.payload && written[1].payload === room.semantics)
        #expect(written[2].payload === room.presenceMessage && written[3].payload === room.frame(theme: .light).full)
        #expect(q.bytesCopied == 0)
    }
}
