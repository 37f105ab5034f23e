import ScrollCore

/// Bytes per delta frame while the ruler flings (2000 pt/s, until it rests), and what an idle
/// room encodes afterwards.
func printFlingBytes() {
    let scene = DemoScene.make()
    var encoder = FrameEncoder()
    let key = PointerKey(client: "bench", pointer: 1)
    var t = 0.0
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 330, y: 214), clientTime: t)), at: t)
    for k in 1...10 {
        t += 0.008
        scene.apply(
            .pointer(
                PointerInput(phase: .move, key: key, position: Point(x: 330 - 16 * Double(k), y: 214), clientTime: t)),
            at: t)
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
    print(
        "bytes per delta frame during a 2000 pt/s fling: median \(Int(median(sizes))) B over \(sizes.count) frames  [budget ≤ 256 B]"
    )
    print("idle: \(idle.changedLayers) changed layers → the server sends nothing")
}

/// Bytes per delta frame during a slow drag: 2 pt per 60 Hz frame (120 pt/s) for 4 s.
func printDragBytes() {
    let scene = DemoScene.make()
    var encoder = FrameEncoder()
    let key = PointerKey(client: "bench", pointer: 1)
    var t = 0.0
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 330, y: 214), clientTime: t)), at: t)
    _ = encoder.encode(scene.render(theme: .light), time: t)
    var sizes: [Double] = []
    for k in 1...240 {
        t += 1.0 / 60
        let x = 330 - 2 * Double(k)  // the captured pointer may leave the ruler: it still drags it
        scene.apply(
            .pointer(PointerInput(phase: .move, key: key, position: Point(x: x, y: 214), clientTime: t)), at: t)
        sizes.append(Double(encoder.encode(scene.render(theme: .light), time: t).delta.count))
    }
    print(
        "bytes per delta frame during a 120 pt/s drag: median \(Int(median(sizes))) B, max \(Int(sizes.max() ?? 0)) B over \(sizes.count) frames  [budget ≤ 256 B]"
    )
}
