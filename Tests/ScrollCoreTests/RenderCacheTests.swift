import Testing

@testable import ScrollCore

/// The scene reuses a widget's last drawing while its `drawingKey` stays the same, and a part's
/// while its key does: every frame must still be exactly what drawing everything afresh gives,
/// ops and offsets (a roller's columns are one strip drawn once: their offsets show the digits).
@Suite struct RenderCacheTests {
    /// Each widget's drawing, then each of its parts', in the scene's layer order.
    func fresh(_ scene: Scene, _ theme: Theme) -> [DisplayList] {
        scene.widgets.flatMap { $0.drawings(theme: theme) }
    }

    /// Layer 0 (docs/PROTOCOL.md, "Frames": "0 = background"): the theme's colour over the whole scene.
    func background(_ scene: Scene, _ theme: Theme) -> DisplayList {
        var list = DisplayList()
        list.setFill(theme.background)
        list.fillRect(Rect(x: 0, y: 0, width: scene.size.width, height: scene.size.height))
        return list
    }

    /// Each widget's layer offset, then each of its parts', in the scene's layer order.
    func offsets(_ scene: Scene) -> [Point] {
        scene.widgets.flatMap { w in [w.layerOffset] + (w.hasParts ? w.parts.map(\.offset) : []) }
    }

    @Test("every frame of a busy demo session equals a fresh drawing, in both themes and with reduced motion")
    func cachedEqualsFresh() {
        let scene = DemoScene.make()
        let themes = [Theme.light, .dark, Theme.light.reducingMotion(true)]
        let key = PointerKey(client: "a", pointer: 1)
        func pointer(_ phase: PointerPhase, _ x: Double, _ y: Double, _ t: Double) {
            scene.apply(
                .pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: y), clientTime: t)), at: t)
        }
        var inputs: [(Double, () -> Void)] = []
        // A ruler fling, a picker drag, a carousel tap and swipe, roller presses, all overlapping.
        inputs.append((0.0, { pointer(.down, 300, 214, 0) }))
        for i in 1...8 {
            inputs.append((0.01 * Double(i), { pointer(.move, 300 - 15 * Double(i), 214, 0.01 * Double(i)) }))
        }
        inputs.append((0.09, { pointer(.up, 180, 214, 0.09) }))
        inputs.append((0.5, { scene.apply(.action(ActionInput(widget: "rollerPlus99", name: "press")), at: 0.5) }))
        inputs.append(
            (
                0.6,
                { scene.apply(.action(ActionInput(widget: "carousel", name: "select", args: ["index": 0])), at: 0.6) }
            ))
        inputs.append(
            (
                0.7,
                { scene.apply(.action(ActionInput(widget: "carousel", name: "delete", args: ["index": 3])), at: 0.7) }
            ))
        inputs.append((0.8, { scene.apply(.key("PageUp", widget: "picker"), at: 0.8) }))
        inputs.append((1.0, { scene.apply(.action(ActionInput(widget: "rollerRandom", name: "press")), at: 1.0) }))
        var next = 0, frames = 0, mismatches = 0
        for k in 0...(60 * 30) {
            let t = Double(k) / 60
            while next < inputs.count, inputs[next].0 <= t {
                inputs[next].1()
                next += 1
            }
            scene.advance(to: t)
            _ = scene.takeEvents()
            for theme in themes {
                let layers = scene.render(theme: theme)
                if layers.first?.id != 0 || layers.first?.list != background(scene, theme) { mismatches += 1 }
                if layers.dropFirst().map(\.list) != fresh(scene, theme) { mismatches += 1 }
                if layers.dropFirst().map(\.offset) != offsets(scene) { mismatches += 1 }
            }
            frames += 1
            if next == inputs.count, !scene.isAnimating { break }
        }
        #expect(frames > 60)
        #expect(mismatches == 0)
        // Drawings forgotten (a restore): drawn again, the same.
        scene.forgetDrawings()
        for theme in themes.reversed() {
            let layers = scene.render(theme: theme)
            #expect(layers.first?.list == background(scene, theme))
            #expect(layers.dropFirst().map(\.list) == fresh(scene, theme))
        }
    }
}
