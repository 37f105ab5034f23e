import LoopbackTools
import ScrollCore
import Testing

@testable import ScrollServer

/// `/metrics` and `/readyz` as the switchboard reads them (docs/OPERATIONS.md), on a fake clock and
/// wire: every number exact.
@Suite("Switchboard: metrics and readiness on a fake clock")
struct SwitchboardCountingTests {
    /// Everything client `id` is owed, written: the frames and bytes it took.
    private func take(_ h: BoardHarness, _ id: UInt64) -> (frames: Int, bytes: Int) {
        var taken = (frames: 0, bytes: 0)
        while h.board.owesMore(id) {
            guard case .write(let payload, let kind) = h.board.next(id) else { continue }
            taken.bytes += payload.count
            if kind == .binary { taken.frames += 1 }
        }
        return taken
    }

    @Test(
        "frames and bytes written to two clients through a drag are the counts; one render per change, shared: frames rendered = the last frame number"
    )
    func framesWritten() throws {
        let h = try BoardHarness()
        var frames = 0, bytes = 0
        func takeAll() {
            for id: UInt64 in [1, 2] {
                let t = take(h, id)
                frames += t.frames
                bytes += t.bytes
            }
        }
        h.join(1)
        h.join(2)
        takeAll()
        h.pointer(1, .down, x: 300, t: 1000)
        takeAll()
        for i in 1...8 {
            h.clock.advance(by: 0.016)
            h.pointer(1, .move, x: 300 - 10 * Double(i), t: 1000 + 16 * Double(i))
            takeAll()
        }
        h.pointer(1, .up, x: 220, t: 1228)
        takeAll()
        h.runTicks(readers: [1, 2]) { id, sent in frames += sent.filter { $0.contains("#") }.count }
        let seq = h.board.directory.room("r")!.frame(theme: .light).seq
        #expect(frames >= 2 * 10, "two clients, a frame per input at least")
        #expect(h.board.sent.frames == frames)
        #expect(h.board.sent.skipped == 0)
        #expect(h.board.directory.framesRendered == Int(seq))
        let m = MetricsText(h.board.metricsText())
        #expect(m["widget_frames_sent_total"] == Double(frames))
        #expect(m["widget_frames_rendered_total"] == Double(seq))
        #expect(m["widget_clients"] == 2)
        #expect(m["widget_rooms{state=\"active\"}"] == 1)
        #expect(m["widget_input_to_frame_seconds_count"] == 10, "each of client 1's 10 pointer messages, once")
        #expect(m["widget_messages_received_total{type=\"pointer\"}"] == 10)
        #expect(m["widget_messages_received_total{type=\"hello\"}"] == 2)
        // Bytes: all of it before the ticks (whose reads the harness keeps as labels).
        #expect(h.board.sent.bytes >= bytes)
    }

    @Test(
        "the bytes counted are exactly those written (a join, a ping, its pong), and stay counted once the client is gone"
    )
    func bytesWritten() throws {
        let h = try BoardHarness()
        h.join(1)
        var taken = take(h, 1)
        h.send(1, ClientMessage.ping(t: 5).encoded())
        taken.bytes += take(h, 1).bytes
        h.join(2)
        let second = take(h, 2)
        #expect(h.board.sent == SentCounts(frames: taken.frames + second.frames, bytes: taken.bytes + second.bytes))
        #expect(h.board.counters.received(.ping) == 1)
        h.board.closed(1)
        h.board.closed(2)
        #expect(h.board.sent == SentCounts(frames: taken.frames + second.frames, bytes: taken.bytes + second.bytes))
        #expect(MetricsText(h.board.metricsText())["widget_clients"] == 0)
    }

    @Test(
        "messages count by type; unreadable ones (bad JSON, unknown type, binary, too large) as invalid, with their errors by code; closes by code"
    )
    func messagesErrorsCloses() throws {
        let h = try BoardHarness()
        h.join(1)
        h.send(1, "{")
        h.send(1, #"{"type":"teleport"}"#)
        h.board.refused(1, ProtocolError(.unsupported, "binary"), fatal: false)
        h.send(1, ClientMessage.key(key: "ArrowRight", widget: nil, t: 1).encoded())
        h.send(1, ClientMessage.hover(at: Point(x: 1, y: 1), t: 2).encoded())
        h.board.connected(2)
        h.send(2, ClientMessage.hello(.init(version: ProtocolVersion.current - 1)).encoded())
        #expect(h.read(2).suffix(2) == ["fatal protocol_mismatch", "close 1008"])
        h.board.refused(1, ProtocolError(.tooLarge, "big"), fatal: true)
        #expect(h.read(1).suffix(2) == ["fatal too_large", "close 1009"])
        let c = h.board.counters
        #expect(
            ReceivedType.allCases.map { c.received($0) } == [2, 0, 0, 1, 0, 0, 1, 0, 4, 0],
            "hello, pointer, wheel, key, action, ping, hover, preferences, invalid, dropped")
        #expect(c.errors == [.badJSON: 1, .unknownType: 1, .unsupported: 1, .protocolMismatch: 1, .tooLarge: 1])
        #expect(c.closeCodes == [1008: 1, 1009: 1])
        // Both are closing already: stopping sends them no second close; a newcomer gets 1001.
        #expect(h.board.goAway() == 2)
        h.join(3)
        #expect(h.read(3) == ["close 1001"])
        #expect(c.closeCodes == [1001: 1, 1008: 1, 1009: 1])
    }

    @Test("past the rate limit's burst (2 × 1,000) messages are dropped unread and counted as dropped")
    func dropped() throws {
        let h = try BoardHarness()
        h.join(1)
        for i in 0..<2010 { h.send(1, ClientMessage.ping(t: Double(i)).encoded()) }
        #expect(h.board.counters.received(.dropped) == 11, "the hello and 1,999 pings fit the burst of 2,000")
        #expect(h.board.counters.received(.ping) == 1999)
        #expect(h.board.counters.errors == [.rateLimited: 1], "the first one dropped is answered, once")
    }

    @Test("each scrape adds only what happened since the last: totals, never counted twice")
    func scrapesAreTotals() throws {
        let h = try BoardHarness()
        h.join(1)
        _ = h.read(1)
        let first = MetricsText(h.board.metricsText())
        _ = h.board.metricsText()
        h.send(1, ClientMessage.ping(t: 1).encoded())
        _ = h.read(1)
        let third = MetricsText(h.board.metricsText())
        #expect(first["widget_frames_sent_total"] == 1)
        #expect(third["widget_frames_sent_total"] == 1)
        #expect(third["widget_messages_received_total{type=\"ping\"}"] == 1)
        #expect(third["widget_bytes_sent_total"] == Double(h.board.sent.bytes))
        #expect(third["widget_bytes_sent_total"]! > first["widget_bytes_sent_total"]!)
    }

    @Test(
        "ready unless stopping or the store failing its last write: a failed write makes /readyz say why, the next good one ready again; writes and failures counted"
    )
    func readiness() throws {
        let store = FlakyStore(failures: 1)
        let scheduler = ManualScheduler()
        let h = try BoardHarness(store: store, scheduler: scheduler)
        #expect(h.board.unreadiness == nil)
        h.join(1, room: "a")
        h.send(1, BoardHarness.setValue(80, t: 1))
        h.runTicks(readers: [1])
        scheduler.advance(by: 0.05)
        #expect(store.attempts == 1)
        #expect(h.board.unreadiness == "the state store is failing: disk full")
        var m = MetricsText(h.board.metricsText())
        #expect(m["widget_state_write_failures_total"] == 1)
        #expect(m["widget_state_writes_total"] == 0)
        scheduler.advance(by: 1)
        #expect(store.attempts == 2)
        #expect(h.board.unreadiness == nil)
        m = MetricsText(h.board.metricsText())
        #expect(m["widget_state_writes_total"] == 1)
        _ = h.board.goAway()
        #expect(h.board.unreadiness == "stopping")
    }
}
