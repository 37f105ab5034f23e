import Testing

@testable import ScrollCore

/// DESIGN.md principle 2: the same trace gives the same result at 30, 60 or 240 fps.
@Suite struct ReplayFrameRateTests {
    @Test(
        "30, 60 and 240 fps: same final values, final events at the same times (1e-6)",
        arguments: ["slow-drag.jsonl", "fling.jsonl", "fling-caught.jsonl", "wrap.jsonl", "action.jsonl"])
    func frameRateIndependent(trace: String) throws {
        let entries = try TraceFiles.entries(trace)
        let runs = [30.0, 60.0, 240.0].map { Replayer(fps: $0).run(entries) }
        let reference = runs[1]
        #expect(!reference.finalEvents.isEmpty)
        for run in runs {
            #expect(run.json.widgetsPart == reference.json.widgetsPart)
            #expect(run.finalValues == reference.finalValues)
            #expect(run.finalEvents.count == reference.finalEvents.count)
            for (a, b) in zip(run.finalEvents, reference.finalEvents) {
                #expect(abs(a.time - b.time) < 1e-6)
            }
        }
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
