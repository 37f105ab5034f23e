import Testing

@testable import ScrollCore

/// With reduced motion (docs/PROTOCOL.md, `hello`) the carousel's insert and delete are
/// cross-fades — the row before fades out while the row after fades in; nothing rises, grows or
/// slides. The room's state is the same for everyone; only the drawing differs.
@Suite struct CarouselReducedMotionTests {
    static let reduced = Theme.light.reducingMotion(true)
    /// w = 390/5 = 78; tiles are (w − 10)·scale square, centred 10 pt above the row's middle.
    static let restY = CarouselScene.carouselFrame.midY - 10

    /// Each tile painted now: its centre, side and the alpha it is painted with.
    func tiles(_ scene: Scene, _ theme: Theme) throws -> [(x: Double, y: Double, side: Double, alpha: Double)] {
        var list = DisplayList()
        let carousel = scene.widget("carousel")!
        carousel.render(into: &list, theme: theme)
        return try PaintedShapes(list, offset: carousel.layerOffset, time: scene.time).tiles.map {
            ($0.rect.midX, $0.rect.midY, $0.rect.width, $0.alpha)
        }
    }

    func deleteMoon() -> Scene {
        let scene = CarouselScene.make()
        // Star (item 2) is centred; Moon (item 1) goes, and the row keeps heading for Star.
        scene.apply(.action(ActionInput(widget: "carousel", name: "delete", args: ["index": 1])), at: 1)
        return scene
    }

    @Test("mid-delete: every tile at rest height, two half-faded rows, Star centred in both at its rest size")
    func deleteCrossFades() throws {
        let scene = deleteMoon()
        scene.advance(to: 1.15)
        let drawn = try tiles(scene, Self.reduced)
        #expect(drawn.allSatisfy { abs($0.y - Self.restY) < 1e-3 }, "\(drawn)")
        #expect(drawn.allSatisfy { abs($0.alpha - 0.5) < 1e-6 }, "\(drawn)")
        // Star at the centre twice (before and after), 1.2 × 68 = 81.6 pt: it does not move.
        let star = drawn.filter { abs($0.x - 195) < 1e-3 }
        #expect(star.count == 2 && star.allSatisfy { abs($0.side - 81.6) < 1e-3 }, "\(star)")
        // Without reduced motion, Moon rises (half of 150 pt at half time) and the rest slide.
        let moving = try tiles(scene, .light)
        #expect(moving.contains { $0.y < Self.restY - 30 })
    }

    @Test("an add while a finger drags the row: the row fading in follows the finger, sized where it is shown")
    func addUnderAFinger() throws {
        let scene = CarouselScene.make()
        let key = PointerKey(client: "a", pointer: 1)
        func pointer(_ phase: PointerPhase, _ x: Double, _ t: Double) {
            scene.apply(
                .pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: 115), clientTime: t)), at: t)
        }
        pointer(.down, 195, 1)
        pointer(.move, 175, 1.02)
        pointer(.move, 155, 1.04)
        scene.apply(.action(ActionInput(widget: "carousel", name: "add", args: ["name": "New"])), at: 1.06)
        let carousel = try #require(scene.widget("carousel") as? Carousel)
        let at = carousel.contentOffset
        pointer(.move, 115, 1.16)
        // The finger took the row 40 pt further after the add; a third of the way into the fade.
        #expect(abs(carousel.contentOffset - at - 40) < 1e-9)
        let drawn = try tiles(scene, Self.reduced).filter { abs($0.alpha - 1.0 / 3) < 1e-6 }
        // Every item of the row fading in where the row is now, at the seed's scale there.
        let w = carousel.cell
        #expect(drawn.count == carousel.count)
        for (k, tile) in drawn.enumerated() {
            let x = CarouselScene.carouselFrame.minX + w * (Double(k) + 2.5) - carousel.contentOffset
            let side = (w - 10) * Carousel.scale(slot: Double(k), offset: carousel.contentOffset, cell: w)
            #expect(
                abs(tile.x - x) < 1e-3 && abs(tile.side - side) < 1e-3, "item \(k): \(tile), want x \(x), side \(side)")
        }
    }

    @Test("an added item fades in at full size where it lands; afterwards both drawings are the same")
    func addFadesIn() throws {
        let scene = CarouselScene.make()
        scene.apply(.action(ActionInput(widget: "carousel", name: "add", args: ["name": "New"])), at: 1)
        scene.advance(to: 1.075)
        let drawn = try tiles(scene, Self.reduced)
        // The new item lands centred (it is headed for): drawn once, at 1.2 × 68, a quarter faded in.
        let centred = drawn.filter { abs($0.x - 195) < 1e-3 && abs($0.alpha - 0.25) < 1e-6 }
        #expect(centred.contains { abs($0.side - 81.6) < 1e-3 }, "\(drawn)")
        #expect(drawn.allSatisfy { abs($0.y - Self.restY) < 1e-3 })
        scene.advance(to: 1.5)
        #expect(try tiles(scene, Self.reduced).map(\.x) == (try tiles(scene, .light)).map(\.x))
        var a = DisplayList(), b = DisplayList()
        scene.widget("carousel")!.render(into: &a, theme: Self.reduced)
        scene.widget("carousel")!.render(into: &b, theme: .light)
        #expect(a == b)
    }
}
