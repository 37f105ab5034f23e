import Testing

@testable import ScrollCore

/// DESIGN.md principle 2: the same trace gives the same result at 30, 60 or 240 fps: the
/// same values and the same events at the same times (moving value reports come at exact
/// tick-crossing times, never sampled at frames: docs/PHYSICS.md, "Crossing times").
@Suite struct ReplayFrameRateTests {
    @Test(
        "every golden trace (ruler, picker, carousel, roller): identical events at 30, 60 and 240 fps, times within 1e-9",
        arguments: TraceFiles.all)
    func frameRateIndependent(trace: String) throws {
        // Tick crossings are solved for their exact time, a trailing report is stamped at
        // last + 16 ms and rests at their closed-form time: the frame clock only decides when
        // the scene is asked, never what it says.
        let runs = try [30.0, 60.0, 240.0].map { try TraceFiles.replay(trace, fps: $0) }
        let reference = runs[1]
        // Every trace comes to rest on something: a final value (ruler, picker, roller) or a settled
        // selection (carousel).
        #expect(reference.events.contains { $0.isFinalValue || $0.isSelection }, "\(trace): no rest event")
        for run in runs {
            #expect(run.json.widgetsPart == reference.json.widgetsPart)
            #expect(run.events.count == reference.events.count, "\(trace): event count")
            for (i, (a, b)) in zip(run.events, reference.events).enumerated() {
                #expect(a.widget == b.widget && a.kind == b.kind, "\(trace): event \(i): \(a) vs \(b)")
                #expect(abs(a.time - b.time) < 1e-9, "\(trace): event \(i) at \(a.time) vs \(b.time)")
            }
        }
    }

    @Test("the golden traces are all there")
    func allTraces() {
        #expect(TraceFiles.all.count >= 13)
        #expect(TraceFiles.all.contains("fling.jsonl") && TraceFiles.all.contains("picker-edge-free.jsonl"))
    }

    @Test("the fling's rest time does not depend on the tick rate, even at odd rates")
    func oddRates() throws {
        let entries = try TraceFiles.entries("fling.jsonl")
        for fps in [24.0, 59.94, 144.0, 1000.0] {
            let result = Replayer(fps: fps).run(entries)
            #expect(result.finalValues == [79.7])
            // 0.1 s + ln(0.5/600)/(1000·ln 0.998) (see ReplayGoldenTests.fling).
            #expect(abs((result.finalEvents.last?.time ?? 0) - 3.641492196607503) < 1e-6)
        }
    }
}

extension JSONValue {
    /// The "widgets" member of a replay result.
    var widgetsPart: JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == "widgets" }?.1
    }
}
