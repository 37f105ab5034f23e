import Testing

@testable import ScrollCore

/// The carousel's add and delete as the page plays them (docs/PROTOCOL.md, "Display list", op
/// 0x17 `tween`): the row is drawn once at the add or delete, its items' slides, growth, rise and
/// fade as tweens and the row's ease as its layer's track; played at any time, every tile is
/// where and as large as WIDGETS.md §3's scale puts it at that time (the drawing frame by frame
/// was that formula at each tick).
@Suite struct CarouselTweenTests {
    /// Cells of 78 pt; tiles (78 − 10)·scale square, centred 10 pt above the row's middle.
    static let frame = CarouselScene.carouselFrame
    static let restY = frame.midY - 10

    /// The carousel's layer as the scene draws it now.
    static func layer(_ scene: Scene) throws -> Layer {
        let i = try #require(scene.widgets.firstIndex { $0.id == "carousel" })
        return try #require(scene.render(theme: .light).first { $0.id == UInt16(i + 1) })
    }

    /// Where the model has each tile at `time` (leaving ones first, as drawn): seed 004's scale at
    /// the item's slot and the row's offset then, times how far it has grown in; a leaving tile
    /// risen by half the row and faded as far as it is through its 0.3 s.
    static func expected(_ c: Carousel, at time: Double) -> [(x: Double, y: Double, side: Double, alpha: Double)] {
        let w = c.cell, x = c.contentOffset
        func at(_ slot: Double) -> Double { frame.minX + w * (slot + 2.5) - x }
        let gone = c.leaving.map { g in
            let p = min(max((time - g.start) / Carousel.animationDuration, 0), 1)
            return (
                at(g.slot), restY - p * frame.height / 2, (w - 10) * Carousel.scale(slot: g.slot, offset: x, cell: w),
                1 - p
            )
        }
        let here = c.items.map { item in
            let slot = item.slot.value(at: time)
            return (
                at(slot), restY,
                (w - 10) * Carousel.scale(slot: slot, offset: x, cell: w) * item.appear.value(at: time), 1.0
            )
        }
        return gone + here
    }

    /// Plays the change made at `t0` tick by tick (60 Hz) to its rest: the layer's ops never
    /// change, and at each tick its tiles, painted at its track's offset then, are where the model has them.
    func playsAsTheModel(_ scene: Scene, from t0: Double) throws {
        let c = try #require(scene.widget("carousel") as? Carousel)
        let drawn = try Self.layer(scene)
        var t = t0
        var ticks = 0
        while c.isAnimating || ticks == 0 {
            t += 1.0 / 60
            ticks += 1
            scene.advance(to: t)
            let now = try Self.layer(scene)
            #expect(now.list == drawn.list, "drawn again at \(t)")
            let offset = drawn.track?.offset(at: t) ?? drawn.offset
            // A leaving tile stays in the drawing, faded out, once the model has forgotten it (and
            // its float32 duration ends up to 2⁻²⁴ s before the model's: invisible tiles aside).
            let painted = try PaintedShapes(drawn.list, offset: offset, time: t).tiles.filter { $0.alpha > 1e-6 }
            let want = Self.expected(c, at: t).filter { $0.alpha > 1e-6 }
            #expect(painted.count == want.count)
            for (p, e) in zip(painted, want) {
                // A cell just off screen: the seed's scale jumps from 0.3 to 0.6 there (WIDGETS.md
                // §3), so a float32 rounding picks either; its tile is not in view.
                if abs(abs(e.x - Self.frame.midX) - 3 * c.cell) < 1e-3 { continue }
                #expect(
                    abs(p.rect.midX - e.x) < 1e-3 && abs(p.rect.midY - e.y) < 1e-3 && abs(p.rect.width - e.side) < 1e-3
                        && abs(p.alpha - e.alpha) < 1e-6, "at \(t): painted \(p), the model \(e)")
            }
        }
        #expect(ticks == 19, "0.3 s at 60 Hz")
    }

    @Test("an add: the new item grows in at the centre while Custom slides on and the row eases to it, drawn once")
    func add() throws {
        let scene = CarouselScene.make()
        scene.apply(.action(ActionInput(widget: "carousel", name: "add", args: ["name": "New"])), at: 1)
        let layer = try Self.layer(scene)
        // The row eases from Star (2 × 78) to the new item (5 × 78): its layer's track, 0.3 s.
        let track = try #require(layer.track)
        #expect(abs(track.offset(at: 1).x + 156) < 1e-3 && abs(track.offset(at: 1.3).x + 390) < 1e-3)
        #expect(abs(track.end - 1.3) < 1e-6)
        try playsAsTheModel(scene, from: 1)
    }

    @Test("a delete: Moon rises and fades, Star and the rest close the gap while the row follows Star, drawn once")
    func delete() throws {
        let scene = CarouselScene.make()
        scene.apply(.action(ActionInput(widget: "carousel", name: "delete", args: ["index": 1])), at: 1)
        // Half way, Moon has risen 37.5 pt (a quarter of the row, linearly) at half alpha; Star
        // slides from slot 2 to 1 as the row eases from 156 to 78: it stays centred, 1.2 × 68.
        let c = try #require(scene.widget("carousel") as? Carousel)
        let layer = try Self.layer(scene)
        let painted = try PaintedShapes(layer.list, offset: try #require(layer.track).offset(at: 1.15), time: 1.15)
        let moon = painted.tiles[0]
        #expect(abs(moon.rect.midY - (Self.restY - 37.5)) < 1e-3 && abs(moon.alpha - 0.5) < 1e-6)
        let star = painted.tiles[1 + 1]
        #expect(abs(star.rect.midX - 195) < 1e-3 && abs(star.rect.width - 81.6) < 1e-3, "\(star)")
        #expect(c.names[1] == "Star")
        try playsAsTheModel(scene, from: 1)
    }

    @Test("an add in the middle of a delete: drawn again once, each tween from its own start, still as the model")
    func addDuringDelete() throws {
        let scene = CarouselScene.make()
        scene.apply(.action(ActionInput(widget: "carousel", name: "delete", args: ["index": 0])), at: 1)
        scene.advance(to: 1.1)
        scene.apply(.action(ActionInput(widget: "carousel", name: "add", args: [:])), at: 1.1)
        try playsAsTheModel(scene, from: 1.1)
    }
}
