import Testing

@testable import ScrollCore

/// The tick picker's golden traces, each replayed against the scene its
/// `# scene:` line names. The expected files come from Traces/reference_model.py (an
/// independent model of the spec); the numbers below are worked out by hand from the
/// spec (values 0…N = 100, 10-pt ticks, cell(x) = floor((x + 5)/10), K = −1000·ln 0.998
/// = 2.0020027, moved + haptic at each exact tick crossing, value reports at most every
/// 16 ms with a trailing report at last + 16 ms, one final at each rest). Each trace's
/// comment shows the same derivation.
@Suite struct PickerGoldenTests {
    static let traces = [
        "picker-slow-drag.jsonl", "picker-fling.jsonl", "picker-edge.jsonl", "picker-edge-free.jsonl",
        "picker-zero-edge.jsonl", "picker-keys.jsonl", "picker-wheel-action.jsonl", "demo-both.jsonl",
    ]

    @Test("every picker trace matches its expected file and keeps the spec's invariants", arguments: traces)
    func golden(trace: String) throws {
        #expect(TraceFiles.all.contains(trace))
        let result = try TraceFiles.replay(trace)
        try expectMatches(result, trace)
        try expectPickerInvariants(result, try TraceFiles.entries(trace))
    }

    @Test("the traces name their scenes: picker, picker-free, demo")
    func scenes() throws {
        #expect(try TraceFiles.sceneName("picker-fling.jsonl") == "picker")
        #expect(try TraceFiles.sceneName("picker-edge-free.jsonl") == "picker-free")
        #expect(try TraceFiles.sceneName("demo-both.jsonl") == "demo")
        // The ruler's traces have no scene line: the default scene.
        #expect(try TraceFiles.sceneName("fling.jsonl") == "demo")
    }

    @Test("slow drag: 47 pt → ticks 1…5 at the moves that cross 5, 15, …, 45; eased to 50, final 5 at 0.5 s")
    func slowDrag() throws {
        let result = try TraceFiles.replay("picker-slow-drag.jsonl")
        // x = 4.7·i at 0.02·i s: a tick boundary 10k − 5 is passed on every second move.
        #expect(result.moved().map(\.value) == [1, 2, 3, 4, 5])
        expectTimes(result.moved().map(\.time), [0.04, 0.08, 0.12, 0.16, 0.2], within: 1e-9)
        // Each change 40 ms after the last report (≥ 16 ms): reported at once.
        expectTimes(result.reports().map(\.time), [0.04, 0.08, 0.12, 0.16, 0.2], within: 1e-9)
        // Held 100 ms before the lift: no fling; ease 47 → 50 without a crossing.
        #expect(result.finals().map(\.value) == [5])
        expectTimes(result.finals().map(\.time), [0.5], within: 1e-9)
        // 5 × (moved, haptic, value) + the final.
        #expect(result.events.count == 16)
        #expect(result.pickerText == "5" && result.countText == "5")
    }

    @Test("fling at 800 pt/s from x0 = 88: projected snap onto 490 (x∞ = 487.60), 40 ticks in the glide")
    func fling() throws {
        let result = try TraceFiles.replay("picker-fling.jsonl")
        // 9 ticks during the drag (x 8.8 → 88), 10…49 in the glide: each exactly once, in order.
        #expect(result.moved().map(\.value) == Array(1...49))
        #expect(result.haptics().count == 49)
        // Retargeted onto 490: x(τ) = 88 + 402·(1 − 0.998^(1000τ)); tick k is entered at
        // 10k − 5: τ = ln(402/(495 − 10k))/K. Tick 10 at 0.11 + ln(402/395)/K, tick 49 at
        // 0.11 + ln(402/5)/K; done when 0.5 pt remain: 0.11 + ln(402/0.5)/K.
        let moved = result.moved()
        expectTimes([moved[9].time, moved[48].time], [0.11877437576643862, 2.3013128491032395], within: 1e-6)
        #expect(result.finals().map(\.value) == [49])
        expectTimes(result.finals().map(\.time), [3.451453718905331], within: 1e-6)
        // Nothing after the rest.
        #expect(result.events.last.map(\.time) == result.finals().last?.time)
    }

    @Test("a hard fling into the N edge (snap) lands exactly on 100 and never beyond")
    func edgeSnap() throws {
        let result = try TraceFiles.replay("picker-edge.jsonl")
        // x∞ = 660 + 6000/K = 3657 is clamped to the edge: target 1000, v' = 340·K.
        #expect(result.moved().map(\.value) == Array(1...100))
        // Tick 100 entered at 995: 0.11 + ln(340/5)/K; at rest when 0.5 pt remain: 0.11 + ln(340/0.5)/K.
        expectTimes([result.moved()[99].time], [2.2176433947800356], within: 1e-6)
        #expect(result.finals().map(\.value) == [100])
        expectTimes(result.finals().map(\.time), [3.3677842645821268], within: 1e-6)
        #expect(result.pickerSemantics?.valueNow == 100 && result.pickerText == "100")
    }

    @Test(
        "free stop: the same fling stops dead on 1000 at the exact time it reaches the edge; a flick back rests off-tick"
    )
    func edgeFree() throws {
        let result = try TraceFiles.replay("picker-edge-free.jsonl")
        // 1) 660 + 6000·(1 − 0.998^(1000τ))/K = 1000 at τ = ln(1 − 340·K/6000)/(1000·ln 0.998) = 0.060147 s.
        // 2) From x0 = 974.5 at 0.614 s with −500 pt/s: x∞ = 724.75; done when 0.5 pt remain,
        //    ln(500/(0.5·K))/K = 3.103696 s later, at x = 725.25; the hand-over to 724.75
        //    crosses 725 at that time: tick 72.
        #expect(result.finals().map(\.value) == [100, 72])
        expectTimes(result.finals().map(\.time), [0.170146854977198, 3.717695791773558], within: 1e-6)
        let moved = result.moved()
        #expect(moved.map(\.value) == Array(1...100) + Array((72...99).reversed()))
        // Tick 100 entered at 995 just before the edge stop: τ = ln(1 − 335·K/6000)/(1000·ln 0.998).
        expectTimes([moved[99].time, moved.last!.time], [0.16920776836636964, 3.717695791773558], within: 1e-6)
        // The rest point 724.75 is in tick 72's cell: the picker shows 72, not a snapped tick.
        #expect(result.pickerSemantics?.valueNow == 72 && result.countText == "72")
    }

    @Test("a drag past the 0 edge and back: clamped at 0, back off the edge at once, 14 crossings")
    func zeroEdge() throws {
        let result = try TraceFiles.replay("picker-zero-edge.jsonl")
        // x = 30, 60, 10, 0 (clamped from −60), 0, then 23 (20 pt back at once, no dead zone).
        #expect(result.moved().map(\.value) == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0, 1, 2])
        #expect(result.haptics().count == 14)
        // The move that pushes further past the edge (0.15 s) says nothing.
        #expect(!result.events.contains { abs($0.time - 0.15) < 1e-9 })
        #expect(result.reports().map(\.value) == [3, 6, 1, 0, 2])
        #expect(result.finals().map(\.value) == [2])
        expectTimes(result.finals().map(\.time), [0.5], within: 1e-9)
    }

    @Test("keys: arrows ±1, PageUp/PageDown ±10, End → N, Home → 0, each a 0.2 s ease with one final")
    func keys() throws {
        let result = try TraceFiles.replay("picker-keys.jsonl")
        // End at 2.0 is taken over at half way (tick 55) by PageDown → 45: one final for both.
        #expect(result.finals().map(\.value) == [1, 2, 12, 11, 10, 45, 0])
        expectTimes(result.finals().map(\.time), [0.2, 0.6, 1.0, 1.4, 1.8, 2.3, 2.7], within: 1e-9)
        // 1 + 1 + 10 + 1 + 1 + 45 + 10 + 45 crossings.
        let moved = result.moved()
        #expect(moved.count == 114)
        #expect(moved.map(\.value).max() == 55)
        // One step's boundary lies half way, and the ease-in-out is symmetric: crossed at 0.1 s.
        expectTimes([moved[0].time, moved[1].time], [0.1, 0.5], within: 1e-6)
        #expect(result.pickerText == "0")
    }

    @Test("wheel (lines, a page, clamped at the edge) and setValue on the picker")
    func wheelAndAction() throws {
        let result = try TraceFiles.replay("picker-wheel-action.jsonl")
        // 48 pt → 5 (eased onto 50, 0.15 + 0.2 s); a page of 390 pt → 44, then −40 pt → 40 (one
        // settle after the latest wheel, already on a tick); setValue 72.4 → 72; 99.6 → 100;
        // a wheel past the edge crosses nothing and rests on 100.
        #expect(result.finals().map(\.value) == [5, 40, 72, 100, 100])
        expectTimes(result.finals().map(\.time), [0.35, 0.7, 1.2, 1.7, 2.15], within: 1e-9)
        // A jump crosses every tick it passes, all at the input's time.
        let moved = result.moved()
        #expect(moved.count == 5 + 39 + 4 + 32 + 28)
        #expect(moved.prefix(5).allSatisfy { $0.time == 0 })
        #expect(moved.filter { abs($0.time - 0.5) < 1e-9 }.map(\.value) == Array(6...44))
        #expect(moved.filter { abs($0.time - 0.55) < 1e-9 }.map(\.value) == [43, 42, 41, 40])
        // The wheel at the edge (2.0 s) moves nothing.
        #expect(!result.events.contains { $0.time > 1.7 && !$0.isFinalValue })
    }

    @Test("demo scene: keys go to the ruler by default, pointers and wheels to the widget under them")
    func demoBoth() throws {
        let result = try TraceFiles.replay("demo-both.jsonl")
        // End / Home on the ruler take the short way round the wrap: 999.0 and 9.0 kg; a
        // line of wheel up: 9.0 kg − 16 pt → 8.8 kg.
        #expect(result.finals("ruler").map(\.value) == [999.0, 9.0, 8.8])
        expectTimes(result.finals("ruler").map(\.time), [0.2, 0.6, 2.35], within: 1e-9)
        // The picker: a drag to 36.9 pt (4), End (100), 3 lines of wheel up (95).
        #expect(result.finals("picker").map(\.value) == [4, 100, 95])
        expectTimes(result.finals("picker").map(\.time), [1.2, 1.7, 2.85], within: 1e-9)
        #expect(result.moved().count == 4 + 96 + 5)
        // The ruler emits no moved or haptic events.
        #expect(!result.events.contains { $0.widget == "ruler" && !$0.isValueReport })
        // Nothing happens after the last rest (the wheel over the readout, the drag between widgets).
        expectTimes([result.events.last?.time ?? 0], [2.85], within: 1e-9)
        #expect(result.scene.semantics.first { $0.id == "readout" }?.valueText == "8.8 kg")
        #expect(result.countText == "95")
    }

    /// Spec rules every picker replay keeps, whatever the input.
    func expectPickerInvariants(
        _ result: ReplayResult, _ entries: [TraceEntry], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let events = result.events
        // Events come in time order.
        for (a, b) in zip(events, events.dropFirst()) {
            #expect(a.time <= b.time + 1e-12, "events out of order at \(b.time)", sourceLocation: sourceLocation)
        }
        // Each moved is followed by its haptic "selection", at the same time.
        for (i, e) in events.enumerated() {
            guard case .moved = e.kind else { continue }
            let next = events.indices.contains(i + 1) ? events[i + 1] : nil
            #expect(
                next?.kind == .haptic("selection") && next?.time == e.time && next?.widget == e.widget,
                "moved at \(e.time) without its haptic", sourceLocation: sourceLocation)
        }
        #expect(result.moved().count == result.haptics().count, sourceLocation: sourceLocation)
        // Moved values are consecutive ticks from 0 (one per crossing) and stay within 0…N.
        var tick = 0
        for m in result.moved() {
            #expect(abs(m.value - tick) == 1, "moved \(tick) → \(m.value)", sourceLocation: sourceLocation)
            #expect((0...100).contains(m.value), sourceLocation: sourceLocation)
            tick = m.value
        }
        // Every value report (moving or final) says the tick the picker has reached by then
        // (the last moved before it in the list), as a number and as text.
        tick = 0
        for e in events where e.widget == "picker" {
            switch e.kind {
            case .moved(let v): tick = v
            case .value(let v, let text, _):
                #expect(
                    v == Double(tick) && text == "\(tick)", "value \(v) at \(e.time)", sourceLocation: sourceLocation)
            default: break
            }
        }
        // Moving reports at most every 16 ms (counted from the previous report, final or not).
        for widget in ["picker", "ruler"] {
            let reports = events.filter { $0.widget == widget && $0.isValueReport }
            for (a, b) in zip(reports, reports.dropFirst()) where !b.isFinalValue {
                #expect(
                    b.time - a.time >= 0.016 - 1e-9, "reports at \(a.time), \(b.time)", sourceLocation: sourceLocation)
            }
        }
        // No event while still: after a widget's final, its next event needs an input first.
        let inputs = entries.map { $0.sceneTime / 1000 }
        for widget in ["picker", "ruler"] {
            let own = events.filter { $0.widget == widget }
            for (a, b) in zip(own, own.dropFirst()) where a.isFinalValue {
                #expect(
                    inputs.contains { $0 > a.time && $0 <= b.time + 1e-12 },
                    "\(widget) event at \(b.time) after its rest at \(a.time) with no input",
                    sourceLocation: sourceLocation)
            }
            // And every gesture ends: nothing of the widget after its last final.
            if let last = own.last { #expect(last.isFinalValue, sourceLocation: sourceLocation) }
        }
        #expect(!result.scene.isAnimating, sourceLocation: sourceLocation)
        #expect(
            result.pickerSemantics.map { (0...100).contains($0.valueNow ?? -1) } ?? false,
            sourceLocation: sourceLocation)
        #expect(result.countText == result.pickerText, sourceLocation: sourceLocation)
    }
}

func expectTimes(
    _ actual: [Double], _ expected: [Double], within tolerance: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "\(actual) vs \(expected)", sourceLocation: sourceLocation)
    for (a, e) in zip(actual, expected) {
        #expect(abs(a - e) <= tolerance, "\(a), expected \(e)", sourceLocation: sourceLocation)
    }
}

extension SceneEvent {
    var isValueReport: Bool { if case .value = kind { true } else { false } }
    var isFinalValue: Bool { if case .value(_, _, true) = kind { true } else { false } }
}

extension ReplayResult {
    /// The picker's moved events: (time, tick).
    func moved(_ widget: String = "picker") -> [(time: Double, value: Int)] {
        events.compactMap { e in
            if e.widget == widget, case .moved(let v) = e.kind { (e.time, v) } else { nil }
        }
    }

    func haptics(_ widget: String = "picker") -> [SceneEvent] {
        events.filter { $0.widget == widget && $0.kind == .haptic("selection") }
    }

    /// Moving (non-final) value reports of a widget: (time, value).
    func reports(_ widget: String = "picker") -> [(time: Double, value: Double)] {
        events.compactMap { e in
            if e.widget == widget, case .value(let v, _, false) = e.kind { (e.time, v) } else { nil }
        }
    }

    /// Final value reports of a widget: (time, value).
    func finals(_ widget: String = "picker") -> [(time: Double, value: Double)] {
        events.compactMap { e in
            if e.widget == widget, case .value(let v, _, true) = e.kind { (e.time, v) } else { nil }
        }
    }

    var pickerSemantics: Semantics? { scene.semantics.first { $0.id == "picker" } }
    var pickerText: String? { pickerSemantics?.valueText }
    var countText: String? { scene.semantics.first { $0.id == "count" }?.valueText }
}
