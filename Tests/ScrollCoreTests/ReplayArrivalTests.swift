import Testing

@testable import ScrollCore

/// docs/TRACES.md, "Timeline": a line is applied at its arrival `at` (scene time) and its
/// `t` is the sample's client time (velocity). Expected values are worked out by hand from
/// PHYSICS.md (deceleration) and WIDGETS.md §1 (0.1 kg per 10 pt tick), as in
/// ReplayGoldenTests: the fling of fling.jsonl releases at x0 = 7370 pt (72.5 kg + 120 pt)
/// with 1200 pt/s and is retargeted onto the tick nearest x∞ = 7969.40, 7970 pt, so τ s
/// after the release it is at
///     x(τ) = x0 + (7970 − x0)·(1 − 0.998^(1000τ)).
@Suite struct ReplayArrivalTests {
    /// fling-caught.jsonl's drag and release (no "at": applied at t), then a catch the
    /// client stamped 200 ms after the release that reached the scene 400 ms after it.
    static let lateCatch = """
        {"t": 0, "type": "down", "x": 300, "y": 214, "pointer": 1}
        {"t": 10, "type": "move", "x": 288, "y": 214, "pointer": 1}
        {"t": 20, "type": "move", "x": 276, "y": 214, "pointer": 1}
        {"t": 30, "type": "move", "x": 264, "y": 214, "pointer": 1}
        {"t": 40, "type": "move", "x": 252, "y": 214, "pointer": 1}
        {"t": 50, "type": "move", "x": 240, "y": 214, "pointer": 1}
        {"t": 60, "type": "move", "x": 228, "y": 214, "pointer": 1}
        {"t": 70, "type": "move", "x": 216, "y": 214, "pointer": 1}
        {"t": 80, "type": "move", "x": 204, "y": 214, "pointer": 1}
        {"t": 90, "type": "move", "x": 192, "y": 214, "pointer": 1}
        {"t": 100, "type": "move", "x": 180, "y": 214, "pointer": 1}
        {"t": 100, "type": "up", "x": 180, "y": 214, "pointer": 1}
        {"t": 300, "at": 500, "type": "down", "x": 200, "y": 214, "pointer": 1}
        {"t": 500, "at": 700, "type": "up", "x": 200, "y": 214, "pointer": 1}
        """

    @Test("a catch is applied at its arrival: caught where the glide is 400 ms after the release, not 200 ms")
    func lateCatch() throws {
        let entries = try TraceParser.parse(Self.lateCatch, name: "late-catch.jsonl")
        let result = Replayer().run(entries)
        // τ = 0.4 s (at 500 ms − release 100 ms): 0.998^400 = e^(400·ln 0.998) = e^(−0.800801)
        //   = 0.448969, x = 7370 + 600·(1 − 0.448969) = 7700.62 pt → nearest tick 7700 → 77.0 kg.
        // The lift (client 200 ms after the catch, no motion) is no fling: revised from 0.7 s,
        // final at 0.7 + 0.2 s.
        #expect(result.finalValues == [77.0])
        #expect(result.rulerValue == 77.0)
        #expect(abs((result.finalEvents.last?.time ?? 0) - 0.9) < 1e-9)

        // The same lines without "at" are applied at t: τ = 0.2 s, 0.998^200 = 0.670052,
        //   x = 7370 + 600·(1 − 0.670052) = 7567.97 pt → tick 7570 → 75.7 kg, final at 0.5 + 0.2 s.
        let atT = Replayer().run(
            entries.map {
                var e = $0; e.at = nil; return e
            })
        #expect(atT.finalValues == [75.7])
        #expect(abs((atT.finalEvents.last?.time ?? 0) - 0.7) < 1e-9)
        #expect(atT.finalValues != result.finalValues)
    }

    @Test("--at compares with scene time: a line whose t is before the stop but whose at is after it is not applied")
    func stopAtSceneTime() throws {
        let entries = try TraceParser.parse(Self.lateCatch, name: "late-catch.jsonl")
        // Stop at 400 ms: the catch (t 300, at 500) has not arrived; still gliding, τ = 0.3 s:
        // 7370 + 600·(1 − 0.998^300) = 7640.91 pt → in tick 764's cell → 76.4 kg.
        let before = Replayer(stopAt: 400).run(entries)
        #expect(before.time == 0.4)
        #expect(before.scene.isAnimating)
        #expect(before.rulerValue == 76.4)
        // Stop at 600 ms: caught at 500 ms (7700.62 pt, 77.0 kg) and still held.
        let held = Replayer(stopAt: 600).run(entries)
        #expect(held.time == 0.6)
        #expect(held.rulerValue == 77.0)
        #expect(held.finalEvents.isEmpty)
    }

    @Test(
        "velocity comes from t: bunched arrivals of a regular drag fling exactly like fling.jsonl; the glide starts at the release's at"
    )
    func velocityFromClientTime() throws {
        // fling.jsonl's samples (10 ms, 12 pt apart: 1200 pt/s) reaching the scene in bursts.
        let arrivals: [Double] = [0, 35, 35, 35, 35, 70, 70, 70, 70, 130, 130, 130]
        var entries = try TraceFiles.entries("fling.jsonl")
        #expect(entries.count == arrivals.count)
        for i in entries.indices { entries[i].at = arrivals[i] }
        let result = Replayer().run(entries)
        // Same velocity, so the same rest: 79.7 kg. The glide starts when the release is
        // applied, at 130 ms: done 3.541492 s later (ReplayGoldenTests.fling).
        #expect(result.finalValues == [79.7])
        #expect(abs((result.finalEvents.last?.time ?? 0) - (0.13 + 3.541492196607503)) < 1e-6)
        // Frame-rate independent as before.
        for fps in [30.0, 240.0] {
            let other = Replayer(fps: fps).run(entries)
            #expect(other.finalValues == [79.7])
            #expect(abs((other.finalEvents.last?.time ?? 0) - (result.finalEvents.last?.time ?? 0)) < 1e-6)
        }
    }

    @Test("recorded from two skewed clients, written, read and replayed: the catch lands at its arrival")
    func recordedRoundTrip() throws {
        var recorder = TraceRecorder()
        func pointer(_ phase: PointerPhase, _ x: Double, _ t: Double) -> ClientMessage {
            .pointer(.init(phase: phase, id: 1, x: x, y: 214, t: t))
        }
        var lines: [TraceEntry] = []
        // c1 (page clock 50 000 ms at room time 1 s) flings as in fling.jsonl; its first
        // message was delayed 40 ms, so the rest arrive bunched and t runs 40 ms ahead of at.
        lines += recorder.record(pointer(.down, 300, 50000), client: "c1", roomTime: 1)
        for k in 1...10 {
            let arrival = 1 + max(0, Double(k) * 10 - 40) / 1000
            lines += recorder.record(
                pointer(.move, 300 - 12 * Double(k), 50000 + 10 * Double(k)),
                client: "c1", roomTime: arrival)
        }
        lines += recorder.record(pointer(.up, 180, 50100), client: "c1", roomTime: 1.06)
        // c2 (page clock 7 ms at room time 1.07 s) catches the glide 10 ms after the release
        // was applied and lifts 200 ms later.
        lines += recorder.record(pointer(.down, 200, 7), client: "c2", roomTime: 1.07)
        lines += recorder.record(pointer(.up, 200, 207), client: "c2", roomTime: 1.27)
        // c1's release: t 1100, at 1060; c2's catch: t 1070 < 1100 (written as is), at 1070.
        #expect(lines[11] == .pointer(.up, t: 1100, at: 1060, x: 180, y: 214, client: "c1"))
        #expect(lines[12] == .pointer(.down, t: 1070, at: 1070, x: 200, y: 214, client: "c2"))

        let text = lines.map(\.jsonLine).joined(separator: "\n")
        let result = Replayer().run(try TraceParser.parse(text, name: "recorded.jsonl"))
        // Velocity from c1's t: 1200 pt/s as in fling.jsonl. Caught at τ = 0.010 s:
        //   0.998^10 = 0.980179, x = 7370 + 600·(1 − 0.980179) = 7381.89 pt → tick 7380 → 73.8 kg,
        // revised when c2 lifts (1.27 s): final at 1.47 s.
        #expect(result.finalValues == [73.8])
        #expect(abs((result.finalEvents.last?.time ?? 0) - 1.47) < 1e-9)
    }
}
