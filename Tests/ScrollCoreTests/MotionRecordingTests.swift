import Foundation
import Testing

@testable import ScrollCore

/// `MotionRecording`: each widget's reading at every step of a replay, as `--plot` draws it.
/// The numbers are the fling trace's (docs/PHYSICS.md; the trace's comment works them out): the
/// finger drags the ruler's content from 7250 pt at 1200 pt/s and lets go at 7370 pt, 0.1 s.
@Suite struct MotionRecordingTests {
    func record(_ entries: [TraceEntry], scene: String = "demo") -> (MotionRecording, ReplayResult) {
        let motion = MotionRecording()
        let result = Replayer(
            fps: 60, makeScene: { SceneCatalog.standard.make(scene)! }, onStep: motion.record
        ).run(entries)
        return (motion, result)
    }

    @Test("a fling in demo moves the ruler and the weight readout that follows it, nothing else")
    func movingWidgets() throws {
        let (motion, _) = record(try TraceFiles.entries("fling.jsonl"))
        #expect(motion.moving.map(\.widget) == ["readout", "ruler"])
        #expect(motion.series.map(\.widget) == ["readout", "ruler", "picker", "count", "carousel", "roller"])
        let ruler = try #require(motion.moving.last)
        #expect(ruler.quantity == "offset" && ruler.unit == "pt")
        let readout = try #require(motion.moving.first)
        #expect(readout.quantity == "shown number" && readout.unit == "kg")
        // The readout shows 72.5 kg at first and 79.7 kg once it has rolled there.
        #expect(readout.points.first?.position == 72.5)
        #expect(abs((readout.points.last?.position ?? 0) - 79.7) < 1e-9)
    }

    @Test("the ruler's offset and velocity: dragged at 1200 pt/s, released onto 7970 pt, decaying by 0.998 a ms")
    func flingReadings() throws {
        let (motion, result) = record(try TraceFiles.entries("fling.jsonl"))
        let ruler = try #require(motion.series.first { $0.widget == "ruler" })
        let at = { (t: Double) in ruler.points.last { abs($0.time - t) < 1e-12 } }
        #expect(ruler.points.first == .init(time: 0, position: 7250, velocity: 0))
        // Dragging: the content follows the finger (60 pt left by 0.05 s), and the velocity is
        // what a lift would release: the finger's 1200 pt/s, the content moving the other way.
        #expect(at(0.05)?.position == 7310)
        #expect(abs((at(0.09)?.velocity ?? 0) - 1200) < 1e-6)
        // Released at 7370 pt and retargeted onto the tick at 7970: the glide starts at the
        // velocity that lands there, v = 600 · (−1000 ln 0.998), and decays as 0.998^ms.
        let k = 1000 * log(0.998)
        let v0 = 600 * -k
        let release = try #require(at(0.1))
        #expect(release.position == 7370 && abs(release.velocity - v0) < 1e-6)
        let tick = try #require(at(0.5))  // a frame tick: 30/60 s
        #expect(abs(tick.position - (7370 + v0 * (pow(0.998, 400) - 1) / k)) < 1e-6)
        #expect(abs(tick.velocity - v0 * pow(0.998, 400)) < 1e-6)
        // At rest on 79.7 kg when the replay ends.
        #expect(ruler.points.last == .init(time: result.time, position: 7970, velocity: 0))
        #expect(
            zip(ruler.points, ruler.points.dropFirst()).allSatisfy { $0.time <= $1.time && $0.position <= $1.position })
    }

    @Test("after a pause the reading is held until the input that moves it: a step, not a slope")
    func heldAcrossRest() throws {
        // Down at 0.5 s, 20 pt to the left at 0.6 s, lifted (still) at 0.7 s: the scene rests in between.
        let entries = try TraceParser.parse(
            """
            {"t": 500, "type": "down", "x": 300, "y": 214}
            {"t": 600, "type": "move", "x": 280, "y": 214}
            {"t": 700, "type": "up", "x": 280, "y": 214}
            """, name: "pause")
        let (motion, _) = record(entries, scene: "ruler")
        let ruler = try #require(motion.series.first { $0.widget == "ruler" })
        #expect(
            ruler.points.prefix(4).map { [$0.time, $0.position] } == [
                [0, 7250], [0.5, 7250], [0.6, 7250], [0.6, 7270],
            ])
        #expect(ruler.points.last?.position == 7270)
    }

    @Test("the ruler's offset runs on across a wrap: 999.4 kg → 8.5 kg is 10 pt more, not 99,090 pt less")
    func unbrokenAcrossWrap() throws {
        // setValue 999.4, then ArrowRight: one tick on, past the wrap to 8.5 kg (WIDGETS.md §1).
        let entries = try TraceParser.parse(
            """
            {"t": 0, "type": "action", "widget": "ruler", "action": "setValue", "args": {"value": 999.4}}
            {"t": 1000, "type": "key", "key": "ArrowRight", "widget": "ruler"}
            """, name: "wrap")
        let (motion, result) = record(entries, scene: "ruler")
        let ruler = try #require(motion.series.first { $0.widget == "ruler" })
        #expect(result.finalValues == [999.4, 8.5])
        // At rest on 999.4 kg the ruler has shifted its offset by whole periods; the reading has not.
        let before = try #require(ruler.points.last { $0.time <= 1 }?.position)
        let after = ruler.points.filter { $0.time >= 1 }.map(\.position)
        #expect(after.last == before + 10)
        #expect(zip(after, after.dropFirst()).allSatisfy { $1 >= $0 && $1 <= before + 10 }, "\(after)")
    }
}
