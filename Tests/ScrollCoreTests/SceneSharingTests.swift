import Testing

@testable import ScrollCore

/// One widget, one pointer at a time (the first down wins), and a holder who leaves
/// lets go as if lifted (docs/PROTOCOL.md, "Sharing a room"). Virtual time throughout.
@Suite struct SceneSharingTests {
    static let rulerY = 214.0

    static func pointer(
        _ phase: PointerPhase, _ client: String, x: Double, y: Double = rulerY, t: Double, id: Int = 1
    ) -> SceneInput {
        .pointer(
            PointerInput(
                phase: phase, key: PointerKey(client: client, pointer: id), position: Point(x: x, y: y), clientTime: t))
    }

    func ruler(_ scene: Scene) -> WeightRuler { scene.widget("ruler") as! WeightRuler }

    func finals(_ d: SceneDriver, _ widget: String) -> [Double] {
        d.events.compactMap { e in
            if e.widget == widget, case let .value(v, _, true) = e.kind { v } else { nil }
        }
    }

    @Test("a second client's down on a held ruler changes nothing; after the holder lifts, it can drive")
    func firstDownWins() {
        var d = SceneDriver(RulerScene.make())
        d.apply(Self.pointer(.down, "c1", x: 300, t: 0), at: 0)
        d.apply(Self.pointer(.move, "c1", x: 250, t: 0.05), at: 0.05)
        // c2 comes down on the same ruler and drags 200 pt the other way: ignored.
        d.apply(Self.pointer(.down, "c2", x: 100, t: 0.06), at: 0.06)
        d.apply(Self.pointer(.move, "c2", x: 300, t: 0.08), at: 0.08)
        #expect(ruler(d.scene).contentOffset == 7250 + 50)
        #expect(d.scene.holders.map(\.client) == ["c1"])
        // c1 moves on to 200 (100 pt in all) and holds still 100 ms: no fling, 72.5 + 1.0.
        d.apply(Self.pointer(.move, "c1", x: 200, t: 0.1), at: 0.1)
        d.apply(Self.pointer(.up, "c2", x: 300, t: 0.15), at: 0.15)
        #expect(d.scene.holders.map(\.client) == ["c1"])
        d.apply(Self.pointer(.up, "c1", x: 200, t: 0.2), at: 0.2)
        d.settle()
        #expect(d.scene.holders.isEmpty)
        #expect(finals(d, "ruler") == [73.5])
        // Now c2 may: 50 pt left → +0.5.
        d.apply(Self.pointer(.down, "c2", x: 300, t: 1), at: 1)
        #expect(d.scene.holders.map(\.client) == ["c2"])
        d.apply(Self.pointer(.move, "c2", x: 250, t: 1.05), at: 1.05)
        d.apply(Self.pointer(.up, "c2", x: 250, t: 1.2), at: 1.2)
        d.settle()
        #expect(finals(d, "ruler") == [73.5, 74.0])
    }

    @Test("a second finger of the same client is also refused while the first holds the widget")
    func oneFingerPerWidget() {
        var d = SceneDriver(RulerScene.make())
        d.apply(Self.pointer(.down, "c1", x: 300, t: 0, id: 1), at: 0)
        d.apply(Self.pointer(.down, "c1", x: 100, t: 0.01, id: 2), at: 0.01)
        d.apply(Self.pointer(.move, "c1", x: 0, t: 0.02, id: 2), at: 0.02)
        #expect(ruler(d.scene).contentOffset == 7250)
        #expect(d.scene.holders.count == 1)
    }

    @Test("a holder that leaves while moving lets go with its momentum: the ruler flings past the finger")
    func leaveMidFling() {
        var d = SceneDriver(RulerScene.make())
        // 12 pt every 10 ms: 1200 pt/s leftwards, i.e. the content moves on at +1200 pt/s.
        d.apply(Self.pointer(.down, "c1", x: 300, t: 0), at: 0)
        for i in 1...10 {
            let t = Double(i) * 0.01
            d.apply(Self.pointer(.move, "c1", x: 300 - 12 * Double(i), t: t), at: t)
        }
        // It vanishes 10 ms after its last sample: lifted at client time 0.1 + 0.01.
        d.apply(.leave(client: "c1"), at: 0.11)
        #expect(d.scene.holders.isEmpty)
        d.settle()
        // WIDGETS.md §1 fling: x∞ = x0 + v/(1000·|ln 0.998|) ≈ 7370 + 1200/2.002 ≈ 7969 pt → far past
        // the finger's 7370 (73.7 kg); exactly one final value, on a tick.
        let values = finals(d, "ruler")
        #expect(values.count == 1)
        #expect(values[0] > 78 && values[0] < 81)
    }

    @Test("a holder that had stopped 300 ms before leaving lets go with no momentum: the nearest tick")
    func leaveWhenStill() {
        var d = SceneDriver(RulerScene.make())
        d.apply(Self.pointer(.down, "c1", x: 300, t: 0), at: 0)
        for i in 1...10 {
            let t = Double(i) * 0.01
            d.apply(Self.pointer(.move, "c1", x: 300 - 12.3 * Double(i), t: t), at: t)
        }
        d.apply(.leave(client: "c1"), at: 0.4)
        d.settle()
        // 123 pt → 7373 pt, revised to the nearest tick 7370: 73.7 kg, 0.2 s after the leave.
        #expect(finals(d, "ruler") == [73.7])
        let final = d.events.last { if case .value(_, _, true) = $0.kind { true } else { false } }
        #expect(abs((final?.time ?? 0) - 0.6) < 1e-9)
    }

    @Test("a carousel holder that leaves before its gesture is decided neither taps nor selects")
    func carouselLeaveUndecided() {
        var d = SceneDriver(CarouselScene.make())
        // A would-be tap on Moon (item 1 at x = 195 + 78).
        d.apply(Self.pointer(.down, "c1", x: 273, y: 115, t: 0), at: 0)
        d.apply(.leave(client: "c1"), at: 0.05)
        d.settle()
        #expect(!d.events.contains { if case .selected = $0.kind { true } else { false } })
        #expect((d.scene.widget("carousel") as! Carousel).selection == 2)  // Star, as it started
    }

    @Test("a carousel holder that leaves mid-drag lets go as if lifted: the row settles centred on an item")
    func carouselLeaveDragging() {
        var d = SceneDriver(CarouselScene.make())
        d.apply(Self.pointer(.down, "c1", x: 300, y: 115, t: 0), at: 0)
        for i in 1...6 {
            let t = Double(i) * 0.016
            d.apply(Self.pointer(.move, "c1", x: 300 - 20 * Double(i), y: 115, t: t), at: t)
        }
        d.apply(.leave(client: "c1"), at: 0.2)
        d.settle()
        let carousel = d.scene.widget("carousel") as! Carousel
        #expect(!d.scene.isAnimating)
        // Centred: the offset is a whole number of item widths (78 pt).
        let items = carousel.contentOffset / 78
        #expect(abs(items - items.rounded()) < 1e-6)
        #expect(carousel.selection > 2)  // 120 pt and more to the left of Star
    }

    @Test("a button held by a client that leaves is not pressed")
    func buttonLeave() {
        var d = SceneDriver(RollerScene.make())
        d.apply(Self.pointer(.down, "c1", x: 40, y: 150, t: 0), at: 0)
        #expect((d.scene.widget("rollerPlus1") as! PushButton).isPressed)
        d.apply(.leave(client: "c1"), at: 0.1)
        d.settle()
        #expect(!(d.scene.widget("rollerPlus1") as! PushButton).isPressed)
        #expect((d.scene.widget("roller") as! DigitRoller).number == 0)
        #expect(d.events.isEmpty)
    }
}
