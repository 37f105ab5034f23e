import LoopbackTools
import ScrollCore
import Testing

@testable import ScrollServer

/// What one client's send policy counts for `/metrics` (docs/OPERATIONS.md): exact on labelled
/// payloads, with input-to-frame on times handed in.
@Suite("Send policy: what is counted")
struct OutboundCountingTests {
    private let export = MetricsExport()
    private let counters: ServerCounters

    init() { counters = ServerCounters(inputToFrame: export.inputToFrame) }

    private func queue() -> OutboundQueue { OutboundQueue(headroom: testHeadroom, counters: counters) }

    /// The metrics as scraped now.
    private func scrape() -> MetricsText { MetricsText(export.text(counters, MetricsExport.Reading())) }

    @Test(
        "every write counts its bytes, every frame one frame: semantics (12 B), presence (11), full#1 (6), delta#2 (7)")
    func framesAndBytes() {
        let room = FakeRoom(seq: 1)
        var q = queue()
        #expect(drain(&q, room: room) == ["semantics v1", "presence v1", "bin:full#1"])
        room.show(seq: 2)
        #expect(drain(&q, room: room) == ["bin:delta#2"])
        #expect(q.sent == SentCounts(frames: 2, skipped: 0, bytes: 12 + 11 + 6 + 7))
    }

    @Test(
        "frames a client never got count as skipped: seq 1 then full#5 skips 3; a theme change restarts without a skip")
    func skipped() {
        let room = FakeRoom(seq: 1)
        var q = queue()
        _ = drain(&q, room: room)
        room.show(seq: 5)
        #expect(drain(&q, room: room) == ["bin:full#5"])
        #expect(q.sent.skipped == 3)
        room.show(seq: 9, theme: .dark)
        q.restartFrames()
        #expect(drain(&q, room: room, theme: .dark) == ["bin:full#9 dark"])
        #expect(q.sent.skipped == 3)
        // An unchanged frame counts as received, not skipped.
        room.show(seq: 10, changed: false, theme: .dark)
        #expect(drain(&q, room: room, theme: .dark) == ["nothing"])
        room.show(seq: 11, theme: .dark)
        #expect(drain(&q, room: room, theme: .dark) == ["bin:delta#11 dark"])
        #expect(q.sent.skipped == 3)
    }

    @Test(
        "input-to-frame runs from the oldest input not yet shown to the write of the frame that shows it: received at 10 and 10.002, written at 10.004 → one sample of 4 ms"
    )
    func inputToFrame() {
        let room = FakeRoom(seq: 1)
        var q = queue()
        _ = drain(&q, room: room)
        q.noteApplied(t: 1, receivedAt: 10)
        q.noteApplied(t: 2, receivedAt: 10.002)
        room.show(seq: 2)
        #expect(describe(q.next(from: room, theme: .light, now: 10.004)) == "bin:delta#2")
        // The echo is written next: it is no frame, and no second sample.
        #expect(describe(q.next(from: room, theme: .light, now: 10.006)) == #"{"type":"applied","t":2}"#)
        let m = scrape()
        #expect(m["widget_input_to_frame_seconds_count"] == 1)
        #expect(m["widget_input_to_frame_seconds_bucket{le=\"0.0025\"}"] == 0)
        #expect(m["widget_input_to_frame_seconds_bucket{le=\"0.005\"}"] == 1)
        #expect(abs((m["widget_input_to_frame_seconds_sum"] ?? 0) - 0.004) < 1e-9)
    }

    @Test(
        "input-to-frame samples wait for the scrape, at most 64: the 64th gives them all to the histogram; a scrape counts every sample, 0.1 … 6.4 ms and 1 ms: 65, summing 209 ms"
    )
    func samplesWait() {
        for i in 1...63 { counters.inputShown(after: Double(i) * 1e-4) }
        #expect(counters.shownWaiting == 63)
        counters.inputShown(after: 64e-4)
        #expect(counters.shownWaiting == 0)
        counters.inputShown(after: 0.001)
        #expect(counters.shownWaiting == 1)
        let m = scrape()
        #expect(counters.shownWaiting == 0)
        #expect(m["widget_input_to_frame_seconds_count"] == 65)
        #expect(abs((m["widget_input_to_frame_seconds_sum"] ?? 0) - 0.209) < 1e-9)
        #expect(m["widget_input_to_frame_seconds_bucket{le=\"0.001\"}"] == 11)
    }

    @Test("an input that changed nothing to see is never timed: the next frame (someone else's change) adds no sample")
    func unchangedInput() {
        let room = FakeRoom(seq: 1)
        var q = queue()
        _ = drain(&q, room: room)
        q.noteApplied(t: 1, receivedAt: 0)
        room.show(seq: 2, changed: false)
        _ = drain(&q, room: room)
        room.show(seq: 3)
        #expect(drain(&q, room: room) == ["bin:delta#3"])
        #expect(scrape()["widget_input_to_frame_seconds_count"] == 0)
    }

    @Test("errors count by code when queued, a fatal one too; its close counts by code once written")
    func errorsAndCloses() {
        var q = queue()
        q.enqueueError(ProtocolError(.badJSON, "x"))
        q.enqueueError(ProtocolError(.badJSON, "y"))
        q.enqueueFatal(ProtocolError(.tooLarge, "z"))
        #expect(counters.errors == [.badJSON: 2, .tooLarge: 1])
        #expect(counters.closeCodes.isEmpty, "nothing written yet")
        #expect(
            drain(&q, room: nil) == ["error bad_json", "error bad_json", "fatal too_large", "close 1009 too_large"])
        #expect(counters.closeCodes == [1009: 1])
        let m = scrape()
        #expect(m["widget_errors_total{code=\"bad_json\"}"] == 2)
        #expect(m["widget_closes_sent_total{code=\"1009\"}"] == 1)
        #expect(m["widget_closes_sent_total{code=\"1001\"}"] == 0)
    }

    @Test("a client that stops reading is counted as slow_consumer when it is given up on")
    func slowConsumer() {
        var q = OutboundQueue(headroom: testHeadroom, slowReader: SlowReaderRule(stallTimeout: 2), counters: counters)
        q.enqueue(batch("A"), now: 0)
        q.enqueue(batch("B"), now: 2)
        #expect(counters.errors == [.slowConsumer: 1])
    }
}
