import Foundation
import Testing

@testable import ScrollCore

/// Fair capture and a holder leaving (docs/PROTOCOL.md, "Sharing a room"), as golden traces.
/// The expected files come from Traces/reference_model.py (an independent model of the
/// contract); the numbers below are worked out by hand from it, as in each trace's comment:
/// - a widget is driven by one pointer at a time: a down whose topmost widget another
///   pointer key (client, pointer) holds is ignored, and so is the rest of that gesture;
/// - a `leave` line releases every pointer its client holds, in pointer-id order, at the
///   line's scene time T, with a sample at the pointer's last position and client time
///   last.clientTime + (T − last.sceneTime): the ruler and the picker lift (momentum, snap);
///   the carousel lifts a horizontal drag and cancels anything else (no tap).
/// Ruler: 72.5 kg at x = 7250 pt, value = the tick of cell(x) = floor((x + 5)/10);
/// K = −1000·ln 0.998. Carousel: w = 78, item k centred at 78k, K = −1000·ln 0.99.
@Suite struct SharedCaptureGoldenTests {
    static let traces = [
        "shared-capture-ruler.jsonl", "shared-capture-picker.jsonl", "leave-fling.jsonl", "leave-still.jsonl",
        "leave-carousel.jsonl",
    ]

    @Test("every shared-capture and leave trace matches its expected file", arguments: traces)
    func golden(trace: String) throws {
        #expect(TraceFiles.all.contains(trace), "ReplayFrameRateTests replays every trace in the folder")
        let result = try TraceFiles.replay(trace)
        try expectMatches(result, trace)
        #expect(result.refused.isEmpty)
        #expect(!result.scene.isAnimating)
    }

    @Test("the traces name their scenes: ruler, demo, carousel")
    func scenes() throws {
        for trace in ["shared-capture-ruler.jsonl", "leave-fling.jsonl", "leave-still.jsonl"] {
            #expect(try TraceFiles.sceneName(trace) == "ruler", "\(trace)")
        }
        #expect(try TraceFiles.sceneName("shared-capture-picker.jsonl") == "demo")
        #expect(try TraceFiles.sceneName("leave-carousel.jsonl") == "carousel")
    }

    @Test("a second pointer on the held ruler is ignored, whoever sends it; c2 drives it only after a fresh down")
    func sharedRuler() throws {
        let result = try TraceFiles.replay("shared-capture-ruler.jsonl")
        // c1: 25 pt left every 20 ms, x = 7275, 7300, 7325, 7350: 72.8, 73.0, 73.3, 73.5, each
        // reported at once. c1's pointer 2 (down at 0.03, 50 pt) and c2's pointer 1 (down at
        // 0.05, 200 pt) move nothing. c1 lifts still on the tick 7350: final 73.5 at 0.2.
        // c2's move and up after that still do nothing (never captured); its down at 1.0 is:
        // 47 pt right, x = 7325 (73.3), 7303 (73.0), revised 7303 → 7300 in 0.2 s from 1.2.
        #expect(result.reports("ruler").map(\.value) == [72.8, 73.0, 73.3, 73.5, 73.3, 73.0])
        expectTimes(result.reports("ruler").map(\.time), [0.02, 0.04, 0.06, 0.08, 1.02, 1.04], within: 1e-9)
        #expect(result.finals("ruler").map(\.value) == [73.5, 73.0])
        expectTimes(result.finals("ruler").map(\.time), [0.2, 1.2 + 0.2], within: 1e-9)
        #expect(result.events.count == 8)
        // Nothing from the ignored pointers: no event between c1's lift and c2's own drag.
        #expect(!result.events.contains { $0.time > 0.2 && $0.time < 1.0 })
        #expect(result.rulerValue == 73.0)
        #expect(result.scene.semantics.first { $0.id == "readout" }?.valueText == "73.0 kg")
    }

    @Test("one client holds the picker and the ruler; c2's fingers on them click nothing; leaving lifts both")
    func sharedPicker() throws {
        let result = try TraceFiles.replay("shared-capture-picker.jsonl")
        try PickerGoldenTests().expectPickerInvariants(result, try TraceFiles.entries("shared-capture-picker.jsonl"))
        // c1 pointer 1 on the picker: x = 15 (ticks 1, 2) at 0.02, 30 (tick 3) at 0.04. c2's 50 pt
        // on the held picker: no click. c2 after c1 left: x = 50 (4, 5) at 0.52, 70 (6, 7) at 0.54.
        #expect(result.moved().map(\.value) == Array(1...7))
        expectTimes(result.moved().map(\.time), [0.02, 0.02, 0.04, 0.52, 0.52, 0.54, 0.54], within: 1e-9)
        #expect(result.haptics().count == 7)
        #expect(result.reports().map(\.value) == [2, 3, 5, 7])
        // c1 leaves at 0.4: the picker (still since 0.04) lifts on tick 3, final at once; the
        // ruler (pointer 2, still since 0.1) is revised 7294 → 7290 in 0.2 s.
        #expect(result.finals().map(\.value) == [3, 7])
        expectTimes(result.finals().map(\.time), [0.4, 0.7], within: 1e-9)
        #expect(result.reports("ruler").map(\.value) == [72.7, 72.9])
        expectTimes(result.reports("ruler").map(\.time), [0.08, 0.1], within: 1e-9)
        #expect(result.finals("ruler").map(\.value) == [72.9])
        expectTimes(result.finals("ruler").map(\.time), [0.4 + 0.2], within: 1e-9)
        #expect(result.events.count == 23)
        #expect(result.pickerText == "7" && result.countText == "7")
    }

    @Test("a leave 10 ms (scene time) after a fast drag's last move flings like a lift: 79.7 kg")
    func leaveFling() throws {
        let result = try TraceFiles.replay("leave-fling.jsonl")
        // fling.jsonl's drag, every line arriving 40 ms late; the leave at T = 0.15, 10 ms after
        // the last move's 0.14: lift at client time 0.1 + 0.01 = 0.11, −1200 pt/s (T itself,
        // 50 ms after the last sample, would be no fling). x0 = 7370, content +1200 pt/s:
        // x∞ = 7370 + 1200/K = 7969.40 → 7970; done when 0.5 pt remain, ln(0.5/600)/K later.
        let k = -1000 * log(0.998)
        #expect(abs(7370 + 1200 / k - 7969.399_799_8) < 1e-6)
        let rest = 0.15 + log(0.5 / 600) / (1000 * log(0.998))
        #expect(result.finals("ruler").map(\.value) == [79.7])
        expectTimes(result.finals("ruler").map(\.time), [rest], within: 1e-6)
        #expect(abs(rest - 3.691_492_196_607_503) < 1e-12)
        // Until 0.13 fling.jsonl's reports 40 ms later; 73.7, held at 0.14, comes out at 0.146.
        let reports = result.reports("ruler").prefix(7)
        #expect(reports.map(\.value) == [72.6, 72.7, 73.0, 73.1, 73.3, 73.5, 73.7])
        expectTimes(reports.map(\.time), [0.05, 0.066, 0.082, 0.098, 0.114, 0.13, 0.146], within: 1e-9)
        // The same value as fling.jsonl's up at its last move, 0.05 s later (0.04 late, 0.01 held).
        let fling = try TraceFiles.replay("fling.jsonl")
        #expect(fling.finals("ruler").map(\.value) == [79.7])
        expectTimes(
            result.finals("ruler").map(\.time), fling.finals("ruler").map { $0.time + 0.05 }, within: 1e-9)
    }

    @Test("a leave after holding still 300 ms: no momentum, revised to the nearest tick in 0.2 s")
    func leaveStill() throws {
        let result = try TraceFiles.replay("leave-still.jsonl")
        // 74 pt left: x = 7270, 7290, 7310, 7324 at 0.02 … 0.08; the leave at T = 0.38: lift at
        // client time 0.08 + 0.3, 300 ms after the last sample: velocity 0. 7324 → 7320 in 0.2 s.
        #expect(result.reports("ruler").map(\.value) == [72.7, 72.9, 73.1, 73.2])
        expectTimes(result.reports("ruler").map(\.time), [0.02, 0.04, 0.06, 0.08], within: 1e-9)
        #expect(result.finals("ruler").map(\.value) == [73.2])
        expectTimes(result.finals("ruler").map(\.time), [0.38 + 0.2], within: 1e-9)
        #expect(result.events.count == 5)
        // Lifted at the leave line's own t (c1's last, 0.08) the same drag would fling instead
        // (the tracker's fit of the last 100 ms: −768.6 pt/s): the lift time is what decides.
        let text = try TraceFiles.text("leave-still.jsonl").replacingOccurrences(
            of: #"{"t": 80, "at": 380, "type": "leave", "client": "c1"}"#,
            with: #"{"t": 80, "type": "up", "x": 226, "y": 214, "pointer": 1, "client": "c1"}"#)
        let lifted = Replayer(makeScene: { SceneCatalog.standard.make("ruler")! }).run(
            try TraceParser.parse(text, name: "lifted.jsonl"))
        #expect(lifted.finals("ruler").count == 1 && lifted.finals("ruler").first?.value != 73.2)
    }

    @Test("the carousel: a leaving drag flings and snaps (Leaf); a leaving would-be tap is cancelled (no Heart)")
    func leaveCarousel() throws {
        let result = try TraceFiles.replay("leave-carousel.jsonl")
        try CarouselGoldenTests().expectCarouselInvariants(result)
        // c1: x = 156 + 108 = 264 at 0.16; c2's tap at 0.1 on the held row is ignored; c1
        // leaves at 0.17, 10 ms after its last sample: content +750 pt/s, x∞ = 264 + 750/K =
        // 338.62 → Leaf (4); the glide is done ln(750/(0.5K))/K later, then a 0.3 s ease.
        let k = -1000 * log(0.99)
        #expect(abs(264 + 750 / k - 338.624_371_855) < 1e-6)
        let rest = 0.17 + log(750 / (0.5 * k)) / k + 0.3
        #expect(abs(rest - 0.968_054_433_986) < 1e-9)
        // c2's finger on Heart (undecided, 3 pt, 0.1 s) leaves at 2.1: a cancel, not a tap
        // (a tap would select Heart at 2.4). c3's real tap at 3.0–3.05 centres Heart at 3.35.
        expectEvents(
            result.carouselEvents, [(rest, "selected", 4, "Leaf"), (3.35, "selected", 3, "Heart")], within: 1e-6)
        #expect(!result.events.contains { $0.time > 1 && $0.time < 3 })
        #expect(result.carousel?.names == CarouselGoldenTests.defaults)
        #expect(result.carousel?.selectedName == "Heart")
    }
}
