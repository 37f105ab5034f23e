import Testing

@testable import ScrollCore

/// Recorded traces replayed in virtual time give the values and events the spec predicts. Each
/// trace has an expected JSON next to it, derived from the spec by Traces/reference_model.py
/// (an independent model, not this code).
@Suite struct ReplayGoldenTests {
    @Test("slow drag: 257 pt left, held 100 ms before lifting → no fling, 72.5 + 2.57 → 75.1 kg")
    func slowDrag() throws {
        let result = Replayer().run(try TraceFiles.entries("slow-drag.jsonl"))
        try expectMatches(result, "slow-drag.jsonl")
        // WIDGETS.md §1: value = start + distance/100, revised to the nearest tick (0.2 s).
        #expect(result.finalValues == [75.1])
        let final = try #require(result.finalEvents.last)
        #expect(abs(final.time - (0.3 + 0.2)) < 1e-9)
        // A revision, not a fling: one value event per move, then only the final one. Each
        // move (25.7 pt) enters a new tick and comes 20 ms ≥ 16 ms after the last report, so it
        // is reported at once; the 0.2 s revision 7507 → 7510 pt stays in tick 751's cell.
        #expect(result.events.count == 11)
    }

    @Test("fling at 1200 pt/s lands on the tick nearest x∞ = x0 − v0/(1000·ln 0.998)")
    func fling() throws {
        let result = Replayer().run(try TraceFiles.entries("fling.jsonl"))
        try expectMatches(result, "fling.jsonl")
        // Release at x0 = 7250 + 120 = 7370 pt (72.5 kg + 120 pt), content velocity v0 = +1200 pt/s:
        //   x∞ = 7370 − 1200/(1000·ln 0.998) = 7370 + 1200/2.0020027 = 7370 + 599.40 = 7969.40 pt
        //   nearest 10-pt tick: 7970 pt → 79.7 kg.
        // Retargeted onto 7970 (600 pt away) the glide is done when 0.5 pt remain:
        //   t = ln(0.5/600)/(1000·ln 0.998) = 3.541492 s after the release at 0.1 s.
        #expect(result.finalValues == [79.7])
        let final = try #require(result.finalEvents.last)
        #expect(abs(final.time - 3.641492196607503) < 1e-6)
        // Moving reports (docs/PROTOCOL.md, `events`): a new tick is reported at once if 16 ms
        // have passed since the last report, else held back and reported at last + 16 ms. The
        // drag (12 pt per 10 ms from 7250 pt) enters 72.6 at 0.01 s (reported), 72.7 at 0.02 (held), 72.9 at
        // 0.03 (the flush at 0.03 reports 72.7 at 0.026; 72.9 held), 73.0 at 0.04 (replaces
        // it), 73.1 at 0.05 (73.0 reported at 0.042; 73.1 held), 73.2 at 0.06 (73.1 at 0.058),
        // 73.3 at 0.07, 73.5 at 0.08 (73.3 at 0.074; 73.5 held until 0.074 + 0.016 = 0.09),
        // 73.6 at 0.09: the held 73.5 is due at exactly 0.09 ("last + 0.016 ≤ t" holds), so it
        // is reported at 0.09 and 73.6 is held (then replaced by 73.7 at 0.1).
        let moving = result.events.prefix(6).compactMap { e -> Double? in
            if case let .value(v, _, false) = e.kind { v } else { nil }
        }
        #expect(moving == [72.6, 72.7, 73.0, 73.1, 73.3, 73.5])
        expectTimes(result.events.prefix(6).map(\.time), [0.01, 0.026, 0.042, 0.058, 0.074, 0.09], within: 1e-9)
        #expect(result.rulerValue == 79.7)
        #expect(!result.scene.isAnimating)
    }

    @Test("a touch during the glide stops it where it is; the value is revised to that tick")
    func caughtFling() throws {
        let result = Replayer().run(try TraceFiles.entries("fling-caught.jsonl"))
        try expectMatches(result, "fling-caught.jsonl")
        // Caught 0.3 s after the release: x = x0 + (target − x0)·(1 − 0.998^300)
        //   = 7370 + 600·(1 − 0.548482) = 7640.91 pt → nearest tick 7640 → 76.4 kg,
        // revised when the touch lifts at 0.6 s without moving: final at 0.6 + 0.2 s.
        #expect(result.finalValues == [76.4])
        let caught = try #require(result.finalValues.first)
        #expect(caught > 72.5 && caught < 79.7)
        let final = try #require(result.finalEvents.last)
        #expect(abs(final.time - 0.8) < 1e-9)
    }

    @Test("past 999 comes 9, and back: 72.5 → 998.5 (wheel) → 9.0 (drag) → 999.0 (PageDown)")
    func wrap() throws {
        let result = Replayer().run(try TraceFiles.entries("wrap.jsonl"))
        try expectMatches(result, "wrap.jsonl")
        // Wheel: 5787.5 lines × 16 pt = 92600 pt → 72.5 + 926.0 = 998.5 kg (settles 0.15 s later).
        // Drag 150 pt left: 998.5 + 1.5 → past 999.4 the labels restart at 8.5 → 9.0 kg.
        // PageDown: 9.0 − 1.0 → 999.0 kg.
        #expect(result.finalValues == [998.5, 9.0, 999.0])
        let crossing = result.events.compactMap { e -> Double? in
            if case let .value(v, _, false) = e.kind { v } else { nil }
        }
        #expect(crossing.contains(999.4) && crossing.contains(8.7))
        #expect(result.scene.semantics.first { $0.id == "readout" }?.valueText == "999.0 kg")
    }

    @Test("golden: setValue, a drag, setValue across the wrap both ways, a setValue taken over by a key")
    func action() throws {
        let result = Replayer().run(try TraceFiles.entries("action.jsonl"))
        try expectMatches(result, "action.jsonl")
        // docs/PROTOCOL.md, "Widget actions": each setValue lands on its value 0.2 s after it.
        // 72.5 → 80.3; drag +1.0 → 81.3; → 999.2; → 9.5; 120 taken over by PageUp 0.1 s in.
        #expect(result.finalValues.prefix(4) == [80.3, 81.3, 999.2, 9.5])
        #expect(result.finalEvents.prefix(4).map(\.time) == [0.2, 0.7, 1.4, 1.8])
        #expect(result.finalEvents.count == 5)
        #expect(result.refused.isEmpty)
    }

    @Test("--at stops mid-glide: no final value yet, the value under the pointer at that time")
    func stopAt() throws {
        let result = Replayer(stopAt: 400).run(try TraceFiles.entries("fling.jsonl"))
        #expect(result.time == 0.4)
        #expect(result.finalEvents.isEmpty)
        #expect(result.scene.isAnimating)
        // 0.3 s into the glide: 7640.91 pt lies in the cell of tick 764 → 76.4 kg.
        #expect(result.rulerValue == 76.4)
    }

    @Test("result JSON: time, then every widget's value/text, then the events")
    func resultShape() throws {
        let result = Replayer().run(try TraceFiles.entries("slow-drag.jsonl"))
        guard case .object(let fields) = result.json else { Issue.record("not an object"); return }
        #expect(fields.map(\.0) == ["time", "widgets", "events"])
        // The ruler rests at 0.5 s; the replay ends once everything rests, the readout's roll too.
        guard case .number(let time) = fields[0].1 else { Issue.record("no time"); return }
        #expect(time >= 0.5 && time < 0.5 + 1.5)
        #expect(
            fields[1].1
                == .object([
                    ("readout", .object([("text", "75.1 kg")])),
                    ("ruler", .object([("value", 75.1), ("text", "75.1 kg")])),
                    ("picker", .object([("value", 0), ("text", "0")])),
                    ("count", .object([("text", "0")])),
                    ("carousel", .object([("text", "Star")])),
                    ("itemName", .object([("text", "Star")])),
                    ("roller", .object([("text", "0")])),
                    ("rollerPlus1", .object([])), ("rollerPlus9", .object([])), ("rollerPlus99", .object([])),
                    ("rollerMinus1", .object([])), ("rollerRandom", .object([])),
                ]))
    }

    @Test("an empty trace leaves the default scene: 72.5 kg, no events")
    func emptyTrace() {
        let result = Replayer().run([])
        #expect(result.rulerValue == 72.5)
        #expect(result.events.isEmpty)
        #expect(result.time == 0)
    }
}
