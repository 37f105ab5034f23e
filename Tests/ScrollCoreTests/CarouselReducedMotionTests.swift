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
