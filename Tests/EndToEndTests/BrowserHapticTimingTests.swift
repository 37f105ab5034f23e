import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Events on time (docs/PROTOCOL.md, "What the page does with events"): a tick's haptic comes in
/// the same write as the frame that shows the tick past the centre (events go before the frame
/// in one send), and the page vibrates as it handles the message and paints the frame at its next
/// display frame. So each pulse of a vibration pattern and the paint that first shows its tick
/// crossed fall within one display frame of each other, for one tick a message (a slow drag) and
/// for several (a fling, a pulse per tick spaced as the ticks). How many display frames apart is
/// measured and printed (docs/BENCHMARKS.md); the test holds the median to two.
@Suite(.serialized) struct BrowserHapticTimingTests {
    /// Each pulse (page time, ms) and the paint that first shows its tick crossed, for the
    /// accepted vibrations from the `vibrations`-th and the events messages from the `batches`-th.
    private func pulsesAndPaints(_ b: Chromium, batches: Int, vibrations: Int, binaries: Int) throws -> [(
        pulse: Double, paint: Double
    )] {
        // Every binary message since `binaries`: its arrival and its frame's room time.
        let frames = try b.receivedFrames(from: binaries).map { (at: $0.at, time: $0.frame.time) }
        let paints = try #require(b.evaluate("paintLog.paints.map(p => p.at)") as? [Double])
        // Each message with haptics, the times of its ticks (room time, s); each accepted call.
        let ticks = try #require(
            b.evaluate(
                "observed.batches.slice(\(batches)).map(m => m.filter(e => e.type === 'haptic').map(e => e.t)).filter(t => t.length > 0)"
            ) as? [[Double]])
        let calls = try #require(
            b.evaluate(
                "observed.vibrations.slice(\(vibrations)).filter(v => v.accepted).map(v => [v.at, ...v.pattern])")
                as? [[Double]])
        #expect(calls.count == ticks.count, "one vibration a message with haptics: \(calls.count), \(ticks.count)")
        var pairs: [(pulse: Double, paint: Double)] = []
        for (call, times) in zip(calls, ticks) {
            let at = call[0], pattern = Array(call.dropFirst())
            // Pulse j starts where the pattern says: the first at once, the others spaced as their ticks.
            var start = 0.0
            for j in stride(from: 0, to: pattern.count, by: 2) {
                if j > 0 { start += pattern[j - 1] + pattern[j - 2] }
                // The tick it stands for: the first whose time is that far after the first (the
                // page rounds to whole ms), its exact crossing time (room time).
                let crossed = times.first { (($0 - times[0]) * 1000).rounded() == start } ?? times[0] + start / 1000
                // The first frame at or after the crossing (the frame a tick shows it in is drawn
                // at the tick, never before), and the first paint once it came.
                guard let frame = frames.first(where: { $0.time >= crossed }),
                    let paint = paints.first(where: { $0 >= frame.at })
                else {
                    Issue.record("no frame or paint for the tick crossed at \(crossed) s")
                    continue
                }
                pairs.append((at + start, paint))
            }
        }
        return pairs
    }

    /// How many display frames apart two page times are (0: the same frame).
    private func framesApart(_ a: Double, _ b: Double, displayFrames: [Double]) -> Int {
        let index = { (x: Double) in displayFrames.lastIndex { $0 <= x } ?? -1 }
        return abs(index(a) - index(b))
    }

    @Test(
        "a slow drag (a tick a message) and a fling (several): each pulse and the paint showing its tick within one display frame"
    )
    func hapticWithItsPaint() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.logPaints(keepFrames: true)
        let picker = BrowserPickerTests.picker
        try b.loadObserved(
            server.httpURL + "?scene=picker&room=haptic-timing",
            ready: "\(picker)?.getAttribute('aria-valuenow') !== null")
        let place = try BrowserPickerTests().place(b, "[data-widget=picker]")
        var summary: [String] = []
        for (name, gesture) in [
            (
                "slow drag",
                Gesture.stroke(from: place.x, place.y, by: -120 * place.scale, 0, steps: 20, interval: 0.016, hold: 0.1)
            ),
            (
                "fling",
                Gesture.stroke(
                    .touch, from: place.x, place.y, by: -150 * place.scale, 0, steps: 10, interval: 0.008, hold: 0.004)
            ),
        ] {
            let batches = try #require(b.evaluate("observed.batches.length") as? Int)
            let vibrations = try #require(b.evaluate("observed.vibrations.length") as? Int)
            let binaries = try #require(b.evaluate("paintLog.binaries.length") as? Int)
            let finals = "observed.events.filter(e => e.widget === 'picker' && e.type === 'value' && e.final).length"
            let before = try #require(b.evaluate(finals) as? Int)
            try b.perform(gesture)
            try b.waitFor("\(finals) > \(before)", timeout: 10)
            let pairs = try pulsesAndPaints(b, batches: batches, vibrations: vibrations, binaries: binaries)
            let displayFrames = try #require(b.evaluate("paintLog.frames") as? [Double])
            let apart = pairs.map { framesApart($0.pulse, $0.paint, displayFrames: displayFrames) }
            #expect(pairs.count >= 10, "\(name): \(pairs.count) pulses")
            // Typically within one display frame: a figure of the machine (docs/BENCHMARKS.md: a busy
            // one lets display frames slip in between the messages of one write); the test holds
            // the median to two, a check that nothing waits for a later frame.
            let sorted = apart.sorted()
            #expect(sorted[sorted.count / 2] <= 2, "\(name): display frames apart \(apart)")
            let ms = pairs.map { $0.paint - $0.pulse }.sorted()
            summary.append(
                "\(name): \(pairs.count) pulses, display frames apart \(apart.filter { $0 <= 1 }.count) ≤ 1, "
                    + "paint − pulse median \(String(format: "%.1f", ms[ms.count / 2])) ms, "
                    + "range \(String(format: "%.1f", ms.first ?? 0))…\(String(format: "%.1f", ms.last ?? 0)) ms")
        }
        print("hapticWithItsPaint: " + summary.joined(separator: "; "))
    }
}
