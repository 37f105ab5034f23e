import Foundation
import Testing

@testable import ScrollCore

/// The digit roller's golden traces, in the `roller` scene (one roller, starting at
/// 0 with automatic columns, driven by `changeTo`). The expected files come from
/// Traces/reference_model.py (an independent model of WIDGETS.md §4 and seed 001); the times
/// below are worked out by hand from the seed's formulas, as in each trace's comment:
/// repeat counts per column, default interval 0.3 · columns · |change of the top digit|, a
/// column with repeat 0 one move over the interval, otherwise start
/// interval·(10 − c)/ceil(|Δ|/10^i) (down: interval·c/…), r − 1 turns of interval·10/(|Δ|/10^i),
/// end 0.7·d^0.3/(i + 1) (down: 0.7·(10 − d)^0.3/(i + 1)), each column after the start phases
/// below it; growth re-lays 0.2 s per added column. The roller reports `final` once it
/// settles, a number other than the last reported.
@Suite struct RollerGoldenTests {
    static let traces = [
        "roller-single.jsonl", "roller-530.jsonl", "roller-542.jsonl", "roller-carry.jsonl",
        "roller-interval.jsonl", "roller-queue.jsonl", "roller-refused.jsonl", "roller-jump-relay.jsonl",
    ]

    @Test("every roller trace matches its expected file, refusals included", arguments: traces)
    func golden(trace: String) throws {
        #expect(TraceFiles.all.contains(trace), "ReplayFrameRateTests replays every trace in the folder")
        #expect(try TraceFiles.sceneName(trace) == "roller")
        let result = try TraceFiles.replay(trace)
        let expected = try TraceFiles.expected(trace)
        try expectMatches(result, trace)
        // The refused lines are the model's, in order (the messages are the scene's own words).
        let refusedLines = (expected["refused"] as? [[String: Any]] ?? []).compactMap { $0["line"] as? [String: Any] }
        #expect(result.refused.map(\.entry.t) == refusedLines.compactMap { $0["t"] as? Double }, "refused lines")
        for refusal in result.refused { #expect(!refusal.message.isEmpty) }
        // Only settled values: each final, its text the whole number, never the same twice running.
        let finals = result.rollerFinals
        #expect(finals.count == result.events.count, "the roller reports nothing but settled values")
        for (a, b) in zip(finals, finals.dropFirst()) { #expect(a.value != b.value && a.time < b.time) }
    }

    @Test("one column up and down: one ease-out move over 0.3 · |change| s")
    func single() throws {
        let result = try TraceFiles.replay("roller-single.jsonl")
        // 6, not animated, arrives during 8 -> 3 (1.5 s from 7 s): it waits, then rolls 0.9 s.
        expectFinals(result, [(1.5, 5), (2 + 0.9, 2), (3 + 2.1, 9), (6 + 0.3, 8), (7 + 1.5 + 0.9, 6)])
        #expect(result.rollerText == "6")
    }

    @Test("521 → 530: repeats [1, 0], interval 0.6 s, the tens after the ones' start: 1.2 s")
    func seed530() throws {
        let result = try TraceFiles.replay("roller-530.jsonl")
        // Not animated: a jump, reported at the change's time.
        expectFinals(result, [(0, 521), (1 + 0.6 * 9 / 9 + 0.6, 530), (3, 521)])
    }

    @Test("521 → 542 and back: repeats [2, 0], one full turn of the ones, the end phase last")
    func seed542() throws {
        let result = try TraceFiles.replay("roller-542.jsonl")
        let up = 1 + 1.2 * 9 / 21 + 1.2 * 10 / 21 + 0.7 * pow(2, 0.3)
        // Down: start 1.2·2/21 to the top 0, one turn 1.2·10/21, end 0.7·(10 − 1)^0.3.
        let down = 4 + 1.2 * 2 / 21 + 1.2 * 10 / 21 + 0.7 * pow(9, 0.3)
        expectFinals(result, [(0, 521), (up, 542), (down, 521)])
    }

    @Test("999 → 1000: three carries of 1.2 s, then the new thousands column: 4.8 s")
    func carry() throws {
        let result = try TraceFiles.replay("roller-carry.jsonl")
        expectFinals(result, [(0, 999), (1 + 3 * 1.2 + 1.2, 1000)])
        #expect(result.rollerText == "1000")
    }

    @Test("an explicit interval; the re-lay of an added column outlasting the columns")
    func interval() throws {
        let result = try TraceFiles.replay("roller-interval.jsonl")
        // 9 → 10 in 0.05 s: columns done at +0.1, the re-lay (0.2 s per column) at +0.2.
        // 10 → 42 in 2 s: ones start 2·10/32, two turns of 2·10/32, end 0.7·2^0.3.
        expectFinals(result, [(0, 9), (1 + 0.2, 10), (2 + 3 * 0.625 + 0.7 * pow(2, 0.3), 42)])
    }

    @Test("the queue keeps only the newest waiting change and plays it when the roll ends")
    func queue() throws {
        let result = try TraceFiles.replay("roller-queue.jsonl")
        // 0 → 5 (1.5 s); 7, 3, 8 wait in turn; 5 → 8 from 1.5 (0.9 s). 8 → 12 from 3 s ends at
        // 3 + 0.3 + 0.7·2^0.3; 0 then 30 wait; 12 → 30 then takes 1.2·8/18 + 1.2. 31 and back
        // to 30 (7.0 → 7.3 → 7.6) settles on the number last reported: no event.
        let twelve = 3 + 0.3 + 0.7 * pow(2, 0.3)
        expectFinals(result, [(1.5 + 0.9, 8), (twelve + 1.2 * 8 / 18 + 1.2, 30)])
        #expect(result.rollerText == "30")
    }

    @Test("refusals: negative, the number already accepted, nine digits, not an integer, a bad interval")
    func refused() throws {
        let result = try TraceFiles.replay("roller-refused.jsonl")
        #expect(result.refused.map(\.entry.t) == [0, 100, 200, 250, 280, 500, 700])
        // 0 → 7 from 0.3 s (2.1 s); 4 waits, 7 replaces it: at 2.4 the roller already shows 7
        // and settles. 7 → 4 from 3 s (0.9 s).
        expectFinals(result, [(0.3 + 2.1, 7), (3 + 0.9, 4)])
    }

    /// A roll that starts while a jump's added columns are re-laid: the jump is reported at its
    /// own time (0), so its re-lay is drawing only; the roll 12345678 → 12345679 adds no column
    /// and is done when its one move ends, 0.1 + 0.3 s (not at the re-lay's end, 1.4 s).
    @Test("a roll during a jump's re-lay is done when its own columns are")
    func jumpRelay() throws {
        let result = try TraceFiles.replay("roller-jump-relay.jsonl")
        expectFinals(result, [(0, 12_345_678), (0.1 + 0.3, 12_345_679)])
    }

    @Test("readouts: after every ruler, picker and demo trace the rollers show their widget's text")
    func readoutsSettle() throws {
        for trace in TraceFiles.all {
            guard try ["demo", "ruler", "picker", "picker-free"].contains(TraceFiles.sceneName(trace)) else { continue }
            let widgets = try #require(
                try plainJSON(TraceFiles.replay(trace).json)["widgets"] as? [String: [String: Any]])
            if let ruler = widgets["ruler"] {
                #expect(widgets["readout"]?["text"] as? String == ruler["text"] as? String, "\(trace): readout")
            }
            if let picker = widgets["picker"] {
                #expect(widgets["count"]?["text"] as? String == picker["text"] as? String, "\(trace): count")
            }
        }
    }

    private func expectFinals(
        _ result: ReplayResult, _ expected: [(time: Double, value: Double)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let finals = result.rollerFinals
        #expect(finals.map(\.value) == expected.map(\.value), sourceLocation: sourceLocation)
        for (a, e) in zip(finals, expected) {
            #expect(
                abs(a.time - e.time) < 1e-9, "\(a.value) at \(a.time), expected \(e.time)",
                sourceLocation: sourceLocation)
        }
    }
}

extension ReplayResult {
    /// The roller's final value events: (time, value).
    var rollerFinals: [(time: Double, value: Double)] {
        events.compactMap { event in
            guard event.widget == "roller", case .value(let v, let text, true) = event.kind, text == String(Int(v))
            else { return nil }
            return (event.time, v)
        }
    }

    var rollerText: String? { scene.semantics.first { $0.id == "roller" }?.valueText }
}
