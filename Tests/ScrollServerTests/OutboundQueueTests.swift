import ScrollCore
import Testing

@testable import ScrollServer

// docs/PROTOCOL.md, "Order per connection" and "Errors": one message per writable
// callback, the first of control, pong, events, semantics, frame.

@Suite("Send policy: order per connection")
struct OutboundOrderTests {
    @Test("a new client gets welcome, then semantics, then its first frame")
    func newClient() {
        let room = FakeRoom(seq: 4)
        var q = makeQueue()
        let welcomed = q.enqueueControl("welcome", always: true)
        #expect(welcomed)
        #expect(drain(&q, room: room) == ["welcome", "semantics v1", "presence v1", "bin:full#4"])
    }

    @Test("control, then the pong, then events in order, then semantics, then the frame, whatever the order queued")
    func order() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        q.enqueue(batch("A"))
        q.enqueuePong("pong 1")
        q.enqueue(batch("B"))
        q.enqueueControl("welcome", always: true)
        q.enqueueControl("error 1")
        #expect(
            drain(&q, room: room) == [
                "welcome", "error 1", "pong 1", "events A", "events B", "semantics v1", "presence v1", "bin:full#1",
            ])
    }

    @Test("each callback takes the first pending message at that moment")
    func laterControlOvertakesEvents() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        q.enqueue(batch("A"))
        #expect(describe(q.next(from: room, theme: .light)) == "events A")
        q.enqueue(batch("B"))
        q.enqueueControl("error 1")
        #expect(drain(&q, room: room) == ["error 1", "events B", "semantics v1", "presence v1", "bin:full#1"])
    }

    @Test("with nothing pending no callback is wanted, and one would send nothing")
    func idle() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        _ = drain(&q, room: room)
        #expect(!q.owesMore(renderingFrom: room, theme: .light))
        #expect(describe(q.next(from: room, theme: .light)) == "nothing")
    }

    @Test("before hello (no room) only control and pong are sent; events wait for the room")
    func noRoomYet() {
        var q = makeQueue()
        q.enqueue(batch("A"))
        q.enqueueControl("error not_ready")
        q.enqueuePong("pong 1")
        #expect(drain(&q, room: nil) == ["error not_ready", "pong 1"])
        #expect(!q.owesMore(renderingFrom: nil, theme: .light))
        #expect(drain(&q, room: FakeRoom(seq: 1)) == ["events A", "semantics v1", "presence v1", "bin:full#1"])
    }
}

@Suite("Send policy: control messages and pongs")
struct OutboundControlTests {
    @Test("up to 32 control messages wait for a client that does not read; more are dropped and counted")
    func capped() {
        var q = makeQueue()
        let accepted = (1...34).map { q.enqueueControl("error \($0)") }
        #expect(accepted == Array(repeating: true, count: 32) + [false, false])
        #expect(q.droppedControl == 2)
        #expect(drain(&q, room: nil) == (1...32).map { "error \($0)" })
    }

    @Test("welcome (always) and a fatal error get past a full control queue")
    func alwaysPastTheCap() {
        var q = makeQueue()
        for i in 1...32 { q.enqueueControl("error \(i)") }
        let welcomed = q.enqueueControl("welcome", always: true)
        #expect(welcomed)
        let fatalQueued = q.enqueueFatal(ProtocolError(.serverFull, "full"))
        #expect(fatalQueued)
        #expect(q.droppedControl == 0)
        #expect(
            drain(&q, room: nil) == (1...32).map { "error \($0)" } + [
                "welcome", "fatal server_full", "close 1013 server_full",
            ])
    }

    @Test("only the newest pong is sent")
    func newestPong() {
        var q = makeQueue()
        let queued = (1...3).map { q.enqueuePong("pong \($0)") }
        #expect(queued == [true, true, true])
        #expect(drain(&q, room: nil) == ["pong 3"])
    }

    @Test("no pong once closing: neither one queued before the fatal error nor one after it")
    func noPongWhenClosing() {
        var q = makeQueue()
        q.enqueuePong("pong 1")
        q.enqueueFatal(ProtocolError(.protocolMismatch, "reload"))
        let pongQueued = q.enqueuePong("pong 2")
        #expect(!pongQueued)
        #expect(drain(&q, room: nil) == ["fatal protocol_mismatch", "close 1008 protocol_mismatch"])
    }

    @Test(
        "a fatal error follows what is queued, then the connection closes (1013 for server_full) without room traffic")
    func closeAfterFlush() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        q.enqueueControl("welcome", always: true)
        q.enqueueControl("error 1")
        q.enqueue(batch("A"))
        let fatalQueued = q.enqueueFatal(ProtocolError(.serverFull, "full"))
        #expect(fatalQueued)
        #expect(q.isClosing)
        #expect(drain(&q, room: room) == ["welcome", "error 1", "fatal server_full", "close 1013 server_full"])
    }

    @Test(
        "each fatal error closes with its RFC 6455 code: too_large 1009, server_full 1013, the rest 1008",
        arguments: [
            (ProtocolError.Code.tooLarge, 1009), (.serverFull, 1013), (.protocolMismatch, 1008),
            (.slowConsumer, 1008), (.unknownScene, 1008), (.sceneMismatch, 1008),
        ] as [(ProtocolError.Code, Int)])
    func closeCodes(code: ProtocolError.Code, close: Int) {
        var q = makeQueue()
        q.enqueueFatal(ProtocolError(code, "x"))
        #expect(drain(&q, room: nil) == ["fatal \(code.rawValue)", "close \(close) \(code.rawValue)"])
    }

    @Test("stopping: queued control goes, then close 1001 going away; no pong, echo or room traffic")
    func goingAway() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        q.enqueueControl("welcome", always: true)
        q.enqueue(batch("A"))
        q.enqueuePong("pong 1")
        let queued = q.enqueueGoingAway()
        #expect(queued)
        #expect(q.isClosing)
        let pongQueued = q.enqueuePong("pong 2")
        #expect(!pongQueued)
        #expect(drain(&q, room: room) == ["welcome", "close 1001 going away"])
    }

    @Test("stopping after a fatal error keeps the fatal error's close")
    func goingAwayAfterFatal() {
        var q = makeQueue()
        q.enqueueFatal(ProtocolError(.protocolMismatch, "reload"))
        let queued = q.enqueueGoingAway()
        #expect(!queued)
        #expect(drain(&q, room: nil) == ["fatal protocol_mismatch", "close 1008 protocol_mismatch"])
    }

    @Test("after a fatal error a second one and further events are not queued")
    func fatalOnce() {
        var q = makeQueue()
        q.enqueueFatal(ProtocolError(.protocolMismatch, "reload"))
        let secondFatalQueued = q.enqueueFatal(ProtocolError(.serverFull, "full"))
        #expect(!secondFatalQueued)
        let eventsQueued = q.enqueue(batch("A"))
        #expect(!eventsQueued)
        #expect(drain(&q, room: FakeRoom(seq: 1)) == ["fatal protocol_mismatch", "close 1008 protocol_mismatch"])
    }
}

@Suite("Send policy: events and slow consumers")
struct OutboundEventTests {
    @Test("events up to maxQueuedEvents wait for a client that is not reading")
    func withinBound() {
        var q = makeQueue(maxQueuedEvents: 4)
        let queuedA = q.enqueue(batch("A", count: 3))
        #expect(queuedA)
        let queuedB = q.enqueue(batch("B", count: 1))
        #expect(queuedB)
        #expect(q.queuedEvents == 4)
        #expect(
            drain(&q, room: FakeRoom(seq: 1)) == ["events A", "events B", "semantics v1", "presence v1", "bin:full#1"])
        #expect(q.queuedEvents == 0)
    }

    @Test("sent events no longer count against the bound")
    func sentEventsFreeRoom() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue(maxQueuedEvents: 4)
        q.enqueue(batch("A", count: 3))
        #expect(describe(q.next(from: room, theme: .light)) == "events A")
        let queuedB = q.enqueue(batch("B", count: 3))
        #expect(queuedB)
        #expect(drain(&q, room: room) == ["events B", "semantics v1", "presence v1", "bin:full#1"])
    }

    @Test("one event over the bound: everything queued goes, only slow_consumer is sent, then close 1008")
    func slowConsumer() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue(maxQueuedEvents: 4)
        q.enqueueControl("welcome", always: true)
        q.enqueueControl("error 1")
        q.enqueuePong("pong 1")
        q.enqueue(batch("A", count: 2))
        q.enqueue(batch("B", count: 2))
        let queuedC = q.enqueue(batch("C", count: 1))
        #expect(queuedC, "the refusal needs a write")
        #expect(q.queuedEvents == 0)
        let queuedD = q.enqueue(batch("D"))
        #expect(!queuedD)
        #expect(drain(&q, room: room) == ["fatal slow_consumer", "close 1008 slow_consumer"])
    }
}
