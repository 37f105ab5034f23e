import Testing

@testable import ScrollCore

/// The roller's buttons: +1, +9, +99, −1 and random, drawn by the server.
@Suite struct RollerButtonsTests {
    func tap(_ d: inout SceneDriver, _ id: String, at t: Double, liftAt: Point? = nil) {
        let button = d.scene.widget(id)!
        let key = PointerKey(client: "a", pointer: 1)
        let centre = Point(x: button.frame.midX, y: button.frame.midY)
        d.apply(.pointer(PointerInput(phase: .down, key: key, position: centre, clientTime: t)), at: t)
        d.apply(
            .pointer(PointerInput(phase: .up, key: key, position: liftAt ?? centre, clientTime: t + 0.1)), at: t + 0.1)
    }

    func rollerText(_ d: SceneDriver) -> String? { d.scene.semantics.first { $0.id == "roller" }?.valueText }

    @Test("+1, +9, +99, −1 add to the number the roller is heading for; −1 at 0 does nothing")
    func steps() {
        var d = SceneDriver(RollerScene.make())
        tap(&d, "rollerMinus1", at: 0)
        d.settle()
        #expect(rollerText(d) == "0")
        tap(&d, "rollerPlus1", at: 1)
        tap(&d, "rollerPlus9", at: 1.2)  // while it rolls: waits, counted from 1
        tap(&d, "rollerPlus99", at: 1.4)  // replaces the waiting 10 with 109
        d.settle()
        #expect(rollerText(d) == "109")
        tap(&d, "rollerMinus1", at: 20)
        d.settle()
        #expect(rollerText(d) == "108")
        let finals = d.events.compactMap { if case let .value(v, _, true) = $0.kind { v } else { nil } }
        #expect(finals == [109, 108])  // 1 was never the resting number
    }

    @Test("pressed while the finger is down on it (drawn and in semantics); lifted outside, it does nothing")
    func pressedState() throws {
        var d = SceneDriver(RollerScene.make())
        let button = try #require(d.scene.widget("rollerPlus1") as? PushButton)
        let key = PointerKey(client: "a", pointer: 1)
        let centre = Point(x: button.frame.midX, y: button.frame.midY)
        d.apply(.pointer(PointerInput(phase: .down, key: key, position: centre, clientTime: 0)), at: 0)
        #expect(button.isPressed && button.semantics.valueText == "pressed")
        var list = DisplayList()
        button.render(into: &list, theme: .light)
        #expect(try DisplayListDecoder.decode(list.bytes).contains(.setFill(Theme.light.accent)))
        let outside = Point(x: centre.x, y: centre.y + 100)
        d.apply(.pointer(PointerInput(phase: .move, key: key, position: outside, clientTime: 0.05)), at: 0.05)
        #expect(!button.isPressed)
        d.apply(.pointer(PointerInput(phase: .up, key: key, position: outside, clientTime: 0.1)), at: 0.1)
        d.settle()
        #expect(rollerText(d) == "0")
        #expect(button.semantics.role == "button" && button.semantics.label == "Add 1")
    }

    @Test("Enter or Space on a focused button, and the press action, act like a tap")
    func keysAndAction() {
        var d = SceneDriver(RollerScene.make())
        d.apply(.key("Enter", widget: "rollerPlus9"), at: 0)
        d.settle()
        d.apply(.key(" ", widget: "rollerPlus1"), at: 10)
        d.settle()
        d.apply(.action(ActionInput(widget: "rollerPlus99", name: "press")), at: 20)
        d.settle()
        #expect(rollerText(d) == "109")
    }

    @Test("random draws 0…99,999,999 from the scene's dice: the same seed, the same numbers")
    func random() {
        func draws(seed: UInt64) -> [String?] {
            let scene = RollerScene.make()
            scene.dice.reseed(seed)
            var d = SceneDriver(scene)
            return (0..<3).map { i in
                tap(&d, "rollerRandom", at: Double(i) * 30)
                d.settle()
                return rollerText(d)
            }
        }
        let a = draws(seed: 42), b = draws(seed: 42), c = draws(seed: 7)
        #expect(a == b && a != c)
        #expect(a.allSatisfy { Int($0 ?? "") ?? -1 >= 0 && Int($0 ?? "") ?? Int.max <= 99_999_999 })
        // Draws spread over the range (not stuck low: eight digits most of the time).
        let dice = Dice(seed: 1)
        let big = (0..<1000).filter { _ in dice.next(in: 0...99_999_999) >= 10_000_000 }.count
        #expect(big > 850)
    }
}
