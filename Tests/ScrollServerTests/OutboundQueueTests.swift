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
        q.enqueue(batch("A"), now: 0)
        q.enqueuePong("pong 1")
        q.enqueue(batch("B"), now: 0)
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
        q.enqueue(batch("A"), now: 0)
        #expect(describe(q.next(from: room, theme: .light, now: 0)) == "events A")
        q.enqueue(batch("B"), now: 0)
        q.enqueueControl("error 1")
        #expect(drain(&q, room: room) == ["error 1", "events B", "semantics v1", "presence v1", "bin:full#1"])
    }

    @Test("with nothing pending no callback is wanted, and one would send nothing")
    func idle() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        _ = drain(&q, room: room)
        let owes = q.owesMore(renderingFrom: room, theme: .light)
        #expect(!owes)
        #expect(describe(q.next(from: room, theme: .light, now: 0)) == "nothing")
    }

    @Test("before hello (no room) only control and pong are sent; events wait for the room")
    func noRoomYet() {
        var q = makeQueue()
        q.enqueue(batch("A"), now: 0)
        q.enqueueControl("error not_ready")
        q.enqueuePong("pong 1")
        #expect(drain(&q, room: nil) == ["error not_ready", "pong 1"])
        let owes = q.owesMore(renderingFrom: nil, theme: .light)
        #expect(!owes)
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
        q.enqueue(batch("A"), now: 0)
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
        q.enqueue(batch("A"), now: 0)
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
        let eventsQueued = q.enqueue(batch("A"), now: 0)
        #expect(!eventsQueued)
        #expect(drain(&q, room: FakeRoom(seq: 1)) == ["fatal protocol_mismatch", "close 1008 protocol_mismatch"])
    }
}

@Suite("Send policy: events and slow readers")
struct OutboundEventTests {
    @Test("events wait for a client that is not reading, however many a burst made, for up to 10 s")
    func burstWaits() {
        var q = makeQueue()
        for i in 0..<1500 {
            let queued = q.enqueue(batch("\(i)"), now: Double(i) * 0.001)
            #expect(queued)
        }
        #expect(!q.isClosing)
        let sent = drain(&q, room: FakeRoom(seq: 1))
        #expect(sent.count == 1503 && sent.prefix(2) == ["events 0", "events 1"])
        #expect(q.queuedEventBytes == 0)
    }

    @Test("a client that took nothing for 10 s while events waited is closed at the next event, not before")
    func stalled() {
        var q = makeQueue()
        q.enqueueControl("welcome", always: true)
        q.enqueue(batch("A"), now: 100)
        q.enqueue(batch("B"), now: 109.999)
        #expect(!q.isClosing, "9.999 s without taking anything")
        let closing = q.enqueue(batch("C"), now: 110)
        #expect(closing, "the refusal needs a write")
        #expect(q.queuedEventBytes == 0, "everything queued goes")
        let afterClose = q.enqueue(batch("D"), now: 111)
        #expect(!afterClose)
        #expect(drain(&q, room: FakeRoom(seq: 1)) == ["fatal slow_consumer", "close 1008 slow_consumer"])
    }

    @Test("a client that keeps taking messages is never closed: the 10 s count from its last take")
    func slowButReading() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        var t = 0.0
        for i in 0..<20 {
            q.enqueue(batch("\(i)a"), now: t)
            q.enqueue(batch("\(i)b"), now: t)
            t += 9.5
            // One message taken every 9.5 s while two come: the backlog grows, the reader lives.
            let taken = describe(q.next(from: room, theme: .light, now: t))
            #expect(taken.hasPrefix("events"))
        }
        #expect(!q.isClosing)
        let late = q.enqueue(batch("late"), now: t + 9.99)
        #expect(late)
        #expect(!q.isClosing)
    }

    @Test("the 10 s start when events begin to wait, not at the client's last write before an idle spell")
    func idleThenBurst() {
        let room = FakeRoom(seq: 1)
        var q = makeQueue()
        _ = q.next(from: room, theme: .light, now: 0)
        q.enqueue(batch("A"), now: 60)
        #expect(!q.isClosing, "a minute idle, then one event: nothing stalled yet")
        q.enqueue(batch("B"), now: 69.9)
        #expect(!q.isClosing)
        q.enqueue(batch("C"), now: 70)
        #expect(q.isClosing)
    }

    @Test("more than 32 MiB of events waiting: closed at once")
    func bytesBound() {
        var q = makeQueue(slowReader: SlowReaderRule(stallTimeout: 10, maxQueuedBytes: 1000))
        q.enqueue(batch("A", bytes: 600), now: 0)
        q.enqueue(batch("B", bytes: 400), now: 0)
        #expect(!q.isClosing, "exactly at the bound")
        q.enqueue(batch("C", bytes: 1), now: 0)
        #expect(drain(&q, room: FakeRoom(seq: 1)) == ["fatal slow_consumer", "close 1008 slow_consumer"])
        #expect(SlowReaderRule().maxQueuedBytes == 32 * 1024 * 1024)
        #expect(SlowReaderRule().stallTimeout == 10)
    }
}
