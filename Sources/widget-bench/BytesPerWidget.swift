import ScrollCore

/// Bytes per frame while each widget moves on its own in the demo scene (the ≤ 1 KB budget is
/// per widget moving, docs/DESIGN.md), at
/// 60 Hz until the scene rests: the moving widget's layer (its ops), the delta frames (median,
/// max) and everything the motion sent. A scene's first frame is the full frame a newcomer gets.
func printBytesPerWidget() {
    let key = PointerKey(client: "bench", pointer: 1)
    /// A flick of 160 pt in 80 ms at `y`, from `x` leftwards.
    func flick(x: Double, y: Double) -> [(Double, SceneInput)] {
        var inputs: [(Double, SceneInput)] = [
            (0, .pointer(PointerInput(phase: .down, key: key, position: Point(x: x, y: y), clientTime: 0)))
        ]
        for k in 1...10 {
            let t = 0.008 * Double(k)
            inputs.append(
                (
                    t,
                    .pointer(
                        PointerInput(
                            phase: .move, key: key, position: Point(x: x - 16 * Double(k), y: y), clientTime: t * 1000))
                ))
        }
        inputs.append(
            (0.08, .pointer(PointerInput(phase: .up, key: key, position: Point(x: x - 160, y: y), clientTime: 80))))
        return inputs
    }
    let cases: [(name: String, widget: String, inputs: [(Double, SceneInput)])] = [
        ("ruler fling", "ruler", flick(x: 330, y: DemoScene.rulerFrame.midY)),
        ("picker fling", "picker", flick(x: 330, y: DemoScene.pickerFrame.midY)),
        ("carousel flick", "carousel", flick(x: 330, y: DemoScene.carouselFrame.midY)),
        ("roller 0 → 987", "roller", [(0, .action(ActionInput(widget: "roller", name: "changeTo", args: ["n": 987])))]),
    ]
    print(
        "bytes per frame while one widget moves (demo scene, 60 Hz until rest)  [budget ≤ 1 KB per delta frame, one widget moving]"
    )
    for c in cases {
        let scene = DemoScene.make()
        var encoder = FrameEncoder()
        let fullBefore = encoder.encode(scene.render(theme: .light), time: 0).full.count
        guard let index = scene.widgets.firstIndex(where: { $0.id == c.widget }) else {
            print("  \(c.name): no widget \(c.widget)")
            continue
        }
        var deltas: [Double] = [], layer: [Double] = []
        var t = 0.0, pending = c.inputs[...]
        repeat {
            t += 1.0 / 60
            while let (at, input) = pending.first, at <= t {
                scene.apply(input, at: at)
                pending = pending.dropFirst()
            }
            scene.advance(to: t)
            let layers = scene.render(theme: .light)
            let frame = encoder.encode(layers, time: t)
            guard frame.changedLayers > 0 else { continue }
            deltas.append(Double(frame.delta.count))
            // Layer ids are widget index + 1; a widget's parts (the readout's columns) come between.
            layer.append(Double(layers.first { $0.id == UInt16(index + 1) }?.list.bytes.count ?? 0))
            if frame.delta.count > 1024 { others(frame, except: index + 1) }
        } while (scene.isAnimating || !pending.isEmpty) && t < 30
        let total = Int(deltas.reduce(0, +))
        print(
            "  \(c.name): \(deltas.count) frames over \(String(format: "%.2f", t)) s; delta median \(Int(median(deltas))) B, max \(Int(deltas.max() ?? 0)) B; its layer's ops median \(Int(median(layer))) B, max \(Int(layer.max() ?? 0)) B; whole motion \(total) B; full frame \(fullBefore) B"
        )
    }
}

/// Which other layers a delta frame over 1 KB carries, and their sizes.
private func others(_ frame: EncodedFrame, except id: Int) {
    guard let decoded = try? DecodedFrame(frame.delta) else { return }
    let sent = decoded.layers.compactMap { layer in
        layer.ops.flatMap { Int(layer.id) == id ? nil : "layer \(layer.id): \($0.count) B" }
    }
    print("    a \(frame.delta.count) B delta also carries \(sent)")
}
