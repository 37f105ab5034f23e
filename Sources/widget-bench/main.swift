// Release-build benchmarks for DESIGN.md's budget: `make bench` (swift run -c release widget-bench).
// Medians over batches, all measured in this one run.
import Dispatch
import ScrollCore

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A scene whose ruler is being dragged: every frame differs.
func draggingScene() -> (Scene, (Int) -> Void) {
    let scene = DemoScene.make()
    let key = PointerKey(client: "bench", pointer: 1)
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 300, y: 214), clientTime: 0)), at: 0)
    return (scene, { i in
        let t = Double(i) / 60
        let x = 300 - Double(i % 400) * 0.7
        scene.apply(.pointer(PointerInput(phase: .move, key: key, position: Point(x: x, y: 214), clientTime: t)), at: t)
    })
}

// 1. Build + encode one full-scene frame.
do {
    let (scene, step) = draggingScene()
    var encoder = FrameEncoder()
    var sink = 0
    let batch = 2000
    var perFrame: [Double] = []
    var i = 0
    for _ in 0..<40 {
        perFrame.append(seconds {
            for _ in 0..<batch {
                i += 1
                step(i)
                let frame = encoder.encode(scene.render(theme: .light), time: scene.time)
                sink &+= frame.full.count
            }
        } / Double(batch))
    }
    print("frame build+encode (ruler dragging, full scene): median \(String(format: "%.2f", median(perFrame) * 1e6)) µs  [budget ≤ 20 µs]  (\(sink % 7))")
}

// 2. Bytes per frame while the ruler moves (60 Hz fling), and when idle.
do {
    let scene = DemoScene.make()
    var encoder = FrameEncoder()
    let key = PointerKey(client: "bench", pointer: 1)
    var t = 0.0
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 330, y: 214), clientTime: t)), at: t)
    for k in 1...10 {
        t += 0.008
        scene.apply(.pointer(PointerInput(phase: .move, key: key, position: Point(x: 330 - 16 * Double(k), y: 214), clientTime: t)), at: t)
    }
    scene.apply(.pointer(PointerInput(phase: .up, key: key, position: Point(x: 170, y: 214), clientTime: t)), at: t)
    _ = encoder.encode(scene.render(theme: .light), time: t)
    var sizes: [Double] = []
    while scene.isAnimating {
        t += 1.0 / 60
        scene.advance(to: t)
        let frame = encoder.encode(scene.render(theme: .light), time: t)
        sizes.append(Double(frame.delta.count))
    }
    let idle = encoder.encode(scene.render(theme: .light), time: t + 1)
    print("bytes per delta frame during a 2000 pt/s fling: median \(Int(median(sizes))) B over \(sizes.count) frames  [budget ≤ 1 KB]")
    print("idle: \(idle.changedLayers) changed layers → the server sends nothing")
}

// 3. Physics: a fling's closed-form position is cheap enough to sample per frame per widget.
do {
    var axis = ScrollAxis(offset: 0, snap: SnapRule(step: 10))
    axis.touchDown(at: 0, clientTime: 0, time: 0)
    for k in 1...10 { axis.touchMove(to: -20 * Double(k), clientTime: 0.008 * Double(k), time: 0.008 * Double(k)) }
    axis.touchUp(clientTime: 0.08, time: 0.08)
    var acc = 0.0
    let n = 1_000_000
    let s = seconds { for k in 0..<n { acc += axis.offset(at: 0.08 + Double(k % 3000) / 1000) } }
    print("ScrollAxis.offset(at:) during a fling: \(String(format: "%.1f", s / Double(n) * 1e9)) ns  (\(Int(acc) % 7))")
}
