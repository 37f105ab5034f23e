/// The digit roller on its own, with its buttons below it (`roller`).
public enum RollerScene {
    public static let name = "roller"
    public static let size = Size(width: 390, height: 200)
    public static let rollerFrame = Rect(x: 0, y: 40, width: 390, height: 80)

    public static func make() -> Scene {
        let dice = Dice()
        return Scene(name: name, size: size, widgets: widgets(rollerFrame: rollerFrame, dice: dice), dice: dice)
    }

    /// The buttons: +1, +9, +99, −1 and "random" (0…99,999,999, the most 8 columns show,
    /// drawn from the scene's dice, so a replay with the recorded seed draws the same).
    static let buttons: [(id: String, title: String, label: String, step: Int?)] = [
        ("rollerPlus1", "+1", "Add 1", 1), ("rollerPlus9", "+9", "Add 9", 9), ("rollerPlus99", "+99", "Add 99", 99),
        ("rollerMinus1", "−1", "Subtract 1", -1), ("rollerRandom", "random", "Random number", nil),
    ]

    /// The roller (from 0) and a row of buttons 10 pt below it, 44 pt tall (shared with demo).
    static func widgets(rollerFrame frame: Rect, dice: Dice) -> [Widget] {
        let roller = DigitRoller(id: "roller", frame: frame)
        let gap = 6.0, width = (frame.width - 16 - gap * Double(buttons.count - 1)) / Double(buttons.count)
        let row: [Widget] = buttons.enumerated().map { i, b in
            let rect = Rect(x: frame.minX + 8 + Double(i) * (width + gap), y: frame.maxY + 10, width: width, height: 44)
            return PushButton(id: b.id, frame: rect, title: b.title, label: b.label) { time, events in
                let n = b.step.map { roller.number + $0 } ?? dice.next(in: 0...99_999_999)
                roller.show(n, at: time, events: &events)
            }
        }
        return [roller] + row
    }
}
