// p50/p99 wall time and malloc counts of what the server does per frame and per message
// (`make bench`; docs/BENCHMARKS.md "Micro-benchmarks"). Names carry no commas: the table is
// read from the influx export.
import Benchmark
import FrameWorkloads
import ScrollCore

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 200,
        maxDuration: .seconds(2), maxIterations: 100_000)

    // (b) measures every widget moving or nothing: each moves in at least 90 % of frames (a layer
    // changed, or a track still playing).
    let (changed, _) = FrameWorkload.allMoving().layerChanges(frames: 1200)
    for (id, frames) in changed where FrameWorkload.allMovingWidgets.contains(id) && frames < 1080 {
        fatalError("all-moving: \(id) changed in only \(frames) of 1200 frames")
    }

    // (a), (b): one whole frame as the frame clock makes it: inputs, advance, render, encode.
    for name in FrameWorkload.names {
        let workload = FrameWorkload.named(name)!
        Benchmark("frame \(name)") { _ in blackHole(workload.next()) }
    }

    // (c): encoding only (the delta; the full form is built when a client needs one), the frame drawn.
    for name in FrameWorkload.names {
        let workload = FrameWorkload.named(name)!
        Benchmark("encode \(name)") { benchmark in
            workload.step()
            let layers = workload.render()
            benchmark.startMeasurement()
            blackHole(workload.encode(layers))
            benchmark.stopMeasurement()
        }
    }

    // (d): the message a dragging page sends most.
    guard case .success(.pointer(let move)) = ClientMessage.parse(typicalPointerMove), move.samples.count == 2 else {
        fatalError("the typical pointer move no longer parses as a pointer with two samples")
    }
    Benchmark("decode pointer move") { _ in blackHole(ClientMessage.parse(typicalPointerMove)) }

    // A fling's closed-form position, sampled per frame per widget: 1,000 samples per iteration.
    var axis = ScrollAxis(offset: 0, snap: SnapRule(step: 10))
    axis.touchDown(at: 0, clientTime: 0, time: 0)
    for k in 1...10 { axis.touchMove(to: -20 * Double(k), clientTime: 0.008 * Double(k), time: 0.008 * Double(k)) }
    axis.touchUp(clientTime: 0.08, time: 0.08)
    Benchmark("ScrollAxis offset x1000", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for k in benchmark.scaledIterations { blackHole(axis.offset(at: 0.08 + Double(k % 1000) / 333)) }
    }

    // A glide's value reports, sent ahead at its release (docs/PROTOCOL.md, "Events ahead"): a
    // copy of the ruler's dial run to its rest, once per release on the service thread.
    let ruler = RulerScene.make()
    let key = PointerKey(client: "c", pointer: 1)
    for (k, phase) in [PointerPhase.down, .move, .move, .move, .move, .move, .up].enumerated() {
        let t = 1 + Double(k) / 60
        let at = Point(x: 300 - 2000 * Double(k) / 60, y: DemoScene.rulerFrame.midY)
        ruler.apply(.pointer(PointerInput(phase: phase, key: key, position: at, clientTime: t)), at: t)
    }
    guard ruler.eventsAhead(of: "ruler").count > 30 else { fatalError("the fling has too few reports ahead") }
    Benchmark("events ahead of a fling") { _ in blackHole(ruler.eventsAhead(of: "ruler")) }

    // The track a glide goes out as (docs/PROTOCOL.md, "Tracks"): fitted once per release on the
    // service thread, so its cost is one input's, not one frame's.
    let flung = axis
    Benchmark("fit a fling track") { _ in
        guard let path = flung.plannedPath(from: 0.08) else { fatalError("the fling has no path") }
        blackHole(
            TrackFitter.fit(from: 0.08, to: path.end, breaks: path.breaks) { Point(x: path.offset(at: $0), y: 0) })
    }
}
