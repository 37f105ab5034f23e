import ScrollCore
import Testing

@testable import ScrollServer

// DESIGN.md, "Render once, send many": a room's frames and event batches are encoded once
// into buffers with headroom, and every client's write is handed that same buffer.

@Suite("Shared payloads: send many without copying")
struct SharedPayloadTests {
    @Test("the bytes follow the headroom unchanged")
    func layout() {
        let p = SharedPayload([1, 2, 3, 255], headroom: 24)
        #expect(p.headroom == 24 && p.count == 4)
        #expect(Array(UnsafeBufferPointer(start: p.bytes, count: p.count)) == [1, 2, 3, 255])
        let text = SharedPayload(text: "72,5 kg ±", headroom: 0)
        #expect(text.count == "72,5 kg ±".utf8.count && text.text == "72,5 kg ±")
        #expect(SharedPayload([], headroom: 8).count == 0)
    }

    @Test("every client is handed the room's own frame, event, semantics and presence buffers: nothing copied")
    func fanOutSharesBuffers() {
        let room = FakeRoom(seq: 1)
        let events = batch("A")
        var queues = (0..<3).map { _ in makeQueue() }
        for i in queues.indices {
            queues[i].enqueue(events)
            var written: [SharedPayload] = []
            while queues[i].owesMore(renderingFrom: room, theme: .light) {
                if case .write(let p, _) = queues[i].next(from: room, theme: .light) { written.append(p) }
            }
            #expect(written.count == 4)
            #expect(written[0] === events.payload)
            #expect(written[1] === room.semantics)
            #expect(written[2] === room.presenceMessage)
            #expect(written[3] === room.frame(theme: .light).full)
        }
        room.show(seq: 2)
        for i in queues.indices {
            guard case .write(let p, .binary) = queues[i].next(from: room, theme: .light) else {
                Issue.record("no frame")
                continue
            }
            #expect(p === room.frame(theme: .light).delta)
            #expect(queues[i].bytesCopied == 0)
        }
    }

    @Test("control messages and pongs are made for one client: their bytes are counted, with the queue's headroom")
    func perClientCopiesCounted() {
        var q = makeQueue()
        q.enqueueControl("welcome!")
        q.enqueuePong("pong")
        #expect(q.bytesCopied == 12)
        guard case .write(let p, .text) = q.next(from: nil, theme: .light) else {
            Issue.record("no control message")
            return
        }
        #expect(p.headroom == testHeadroom && p.text == "welcome!")
    }

    @Test("a room encodes a frame once: every call gets the same buffers until something changes")
    func roomRendersOnce() {
        let room = Room(name: "r", scene: DemoScene.make(), origin: 0, headroom: 16)
        let first = room.frame(theme: .light)
        #expect(first.seq == 1 && first.changed)
        #expect(room.frame(theme: .light).full === first.full)
        #expect(first.full.headroom == 16 && first.full.bytes[0] == FrameFormat.kind)

        let key = PointerKey(client: "c1", pointer: 1)
        _ = room.apply(
            [.pointer(PointerInput(phase: .down, key: key, position: Point(x: 300, y: 214), clientTime: 0))], now: 0)
        _ = room.apply(
            [.pointer(PointerInput(phase: .move, key: key, position: Point(x: 200, y: 214), clientTime: 0.1))], now: 0.1
        )
        let moved = room.frame(theme: .light)
        #expect(moved.seq == 2 && moved.changed && moved.full !== first.full)
        #expect(moved.delta.bytes[2] & FrameFormat.flagDelta != 0)
        // The ruler's value changed while the readout rolls: semantics wait (at most 0.25 s
        // apart while anything moves) …
        #expect(room.semanticsVersion == 1)

        _ = room.apply([], now: 0.2)
        let same = room.frame(theme: .light)
        #expect(same.seq == 3 && !same.changed)
        // … and follow 0.25 s after they were last compared (at the down, t = 0).
        _ = room.apply([], now: 0.25)
        #expect(room.semanticsVersion == 2)
    }
}
