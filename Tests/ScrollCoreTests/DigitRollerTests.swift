import Foundation
import Testing

@testable import ScrollCore

/// The digit roller against seed 001's numbers (WIDGETS.md §4).
@Suite struct DigitRollerTests {
    @Test(
        "repeat counts per column (getRepeatTimesWithChangeNumber), up and down",
        arguments: [
            (521, 530, [1, 0]), (521, 542, [2, 0]), (530, 521, [1, 0]), (542, 521, [2, 0]), (521, 522, [0]),
            (599, 601, [1, 1, 0]), (99, 100, [1, 1, 0]), (0, 1000, [100, 10, 1, 0]), (1000, 999, [1, 1, 1, 0]),
        ])
    func repeats(from: Int, to: Int, expected: [Int]) {
        #expect(RollerPlan.repeatCounts(from: from, to: to) == expected)
    }

    @Test(
        "the default interval: 0.3 · rolling columns · |change of the highest rolling digit|",
        arguments: [
            (521, 530, 0.6), (521, 542, 1.2), (521, 522, 0.3), (599, 601, 0.9), (530, 521, 0.6), (0, 1000, 1.2),
        ])
    func interval(from: Int, to: Int, expected: Double) {
        #expect(abs(RollerPlan.interval(from: from, to: to) - expected) < 1e-12)
    }

    @Test("521 → 542: the ones start (ease-in), turn once (linear), end (ease-out); the tens wait for the start")
    func timeline() {
        let interval = 1.2  // 0.3 · 2 columns · |4 − 2|
        let (ones, startDuration) = RollerPlan.moves(
            column: 0, from: 1, to: 2, repeats: 2, change: 21, interval: interval, delay: 0)
        // start = 1.2·(10 − 1)/ceil(21) = 0.5143; a turn = 1.2·10/21 = 0.5714; end = 0.7·2^0.3 = 0.8618.
        let turn = 1.2 * 10 / 21, end = 0.7 * pow(2, 0.3)
        #expect(abs(startDuration - 1.2 * 9 / 21) < 1e-12)
        #expect(ones.count == 3)
        #expect(ones[0].from == 1 && ones[0].to == 10 && ones[0].curve == .easeIn && ones[0].start == 0)
        #expect(ones[1].from == 0 && ones[1].to == 10 && ones[1].curve == .linear && ones[1].repeats == 1)
        #expect(abs(ones[1].duration - turn) < 1e-12)
        #expect(ones[2].from == 0 && ones[2].to == 2 && ones[2].curve == .easeOut)
        #expect(abs(ones[2].duration - end) < 1e-12 && abs(ones[2].end - (startDuration + turn + end)) < 1e-12)
        // The tens (repeat 0): one ease-out move 2 → 4 over the whole interval, after the ones' start.
        let (tens, _) = RollerPlan.moves(
            column: 1, from: 2, to: 4, repeats: 0, change: 21, interval: interval, delay: startDuration)
        #expect(tens == [RollerPlan.Move(start: startDuration, duration: 1.2, from: 2, to: 4, curve: .easeOut)])
    }

    @Test("counting down is the mirror: start to the top 0, turns 10 → 0, end from 10, (10 − target)^0.3")
    func down() {
        let (moves, startDuration) = RollerPlan.moves(
            column: 0, from: 2, to: 1, repeats: 2, change: -21, interval: 1.2, delay: 0)
        #expect(abs(startDuration - 1.2 * 2 / 21) < 1e-12)
        #expect(moves.map(\.from) == [2, 10, 10] && moves.map(\.to) == [0, 0, 1])
        #expect(abs(moves[2].duration - 0.7 * pow(9, 0.3)) < 1e-12)
    }

    /// A roller scene at `start`, then `changes` as actions at their times.
    func run(start: Int = 521, _ changes: [(Double, [String: JSONValue])], fps: Double = 60) -> SceneDriver {
        var driver = SceneDriver(RollerScene.make(), fps: fps)
        driver.apply(change(["n": .number(Double(start)), "animated": false]), at: 0)
        for (t, args) in changes { driver.apply(change(args), at: t) }
        driver.settle()
        return driver
    }

    func change(_ args: [String: JSONValue]) -> SceneInput {
        .action(ActionInput(widget: "roller", name: "changeTo", args: args))
    }

    func finals(_ d: SceneDriver) -> [(t: Double, n: Double)] {
        d.events.compactMap { if case let .value(v, _, true) = $0.kind { ($0.time, v) } else { nil } }
    }

    @Test("column rows at chosen times of 521 → 542 (from t = 1): start, turn, end, and the carried tens")
    func positions() {
        var d = SceneDriver(RollerScene.make())
        d.apply(change(["n": 521, "animated": false]), at: 0)
        d.apply(change(["n": 542]), at: 1)
        let roller = d.scene.widget("roller") as! DigitRoller
        let start = 1.2 * 9 / 21, turn = 1.2 * 10 / 21, end = 0.7 * pow(2, 0.3)
        func row(_ i: Int, at t: Double) -> Double {
            d.apply(.leave(client: "x"), at: t)
            return roller.row(i)
        }
        // Halfway through the start: 1 + 9·easeIn(0.5).
        #expect(abs(row(0, at: 1 + start / 2) - (1 + 9 * CubicBezierEasing.easeIn.value(at: 0.5))) < 1e-9)
        #expect(row(1, at: 1 + start / 2) == 2)  // the tens wait for the ones' start
        // A quarter into the turn: row 2.5, linear.
        #expect(abs(row(0, at: 1 + start + turn / 4) - 2.5) < 1e-9)
        // The tens, halfway through its move (it began at the ones' start's end): 2 + 2·easeOut(0.5).
        #expect(abs(row(1, at: 1 + start + 0.6) - (2 + 2 * CubicBezierEasing.easeOut.value(at: 0.5))) < 1e-9)
        // Near the end of the ones' end phase.
        #expect(abs(row(0, at: 1 + start + turn + end * 0.999) - 2) < 0.01)
        d.settle()
        #expect(roller.row(0) == 2 && roller.row(1) == 4 && roller.row(2) == 5)
        // Done when the ones' end phase is (1 + 0.514 + 0.571 + 0.862 s), after the tens (1 + 0.514 + 1.2).
        #expect(abs((finals(d).last?.t ?? 0) - (1 + start + turn + end)) < 1e-9)
    }

    @Test("how long a one-step roll takes: 0.3 s without carry, 1.2 s with one, 4.8 s for 999 → 1000 (PHYSICS.md)")
    func rollDurations() {
        for (from, to, seconds) in [(521, 522, 0.3), (529, 530, 1.2), (999, 1000, 4.8)] {
            let d = run(start: from, [(1, ["n": .number(Double(to))])])
            #expect(abs((finals(d).last?.t ?? 0) - (1 + seconds)) < 1e-9, "\(from) → \(to)")
        }
    }

    @Test("a change while it rolls waits; of several waiting only the newest plays, right after the roll")
    func queue() {
        let d = run([(1, ["n": 542]), (1.1, ["n": 600]), (1.2, ["n": 577])])
        let roller = d.scene.widget("roller") as! DigitRoller
        #expect((0..<3).map { roller.row($0) } == [7, 7, 5])
        // One report per settle: 521 at 0, then 577 (542 rolled but was never the resting number).
        #expect(finals(d).map(\.n) == [521, 577])
    }

    @Test("grows on the left up to 8 columns, re-laying them over 0.2 s per column; 9 digits are refused")
    func growth() throws {
        var d = run([(1, ["n": 1000]), (10, ["n": 99_999_999])])
        let roller = d.scene.widget("roller") as! DigitRoller
        #expect(roller.columnCount == 8)
        #expect((0..<8).map { roller.row($0) } == Array(repeating: 9, count: 8))
        #expect(throws: ActionError(#"changeTo on "roller": args.n must be an integer in 0…99999999"#)) {
            try d.scene.check(ActionInput(widget: "roller", name: "changeTo", args: ["n": 100_000_000]))
        }
        d.apply(change(["n": 5, "animated": false]), at: 100)
        #expect(roller.columnCount == 8)  // columns never shrink
    }

    @Test("refusals name the reason: negative, too many digits for fixed columns, already shown")
    func refusals() {
        let roller = DigitRoller(id: "r", frame: RollerScene.rollerFrame, number: 42, columns: 3)
        #expect(throws: ActionError(#"changeTo on "r": args.n must be an integer in 0…99999999"#)) {
            try roller.check(ActionInput(widget: "r", name: "changeTo", args: ["n": -1]))
        }
        #expect(throws: ActionError(#"changeTo on "r": 1000 has 4 digits; this roller shows at most 3"#)) {
            try roller.check(ActionInput(widget: "r", name: "changeTo", args: ["n": 1000]))
        }
        #expect(throws: ActionError(#"changeTo on "r": 42 is the number it already shows or is rolling to"#)) {
            try roller.check(ActionInput(widget: "r", name: "changeTo", args: ["n": 42]))
        }
    }

    @Test("decimals and a unit: 725 tenths read \"72.5 kg\", 5 read \"0.5 kg\"; a point is drawn")
    func decimals() throws {
        let roller = DigitRoller(
            id: "w", frame: DemoScene.readoutFrame, number: 725, format: NumberFormat(decimals: 1, unit: "kg"),
            readout: true)
        #expect(roller.text(725) == "72.5 kg" && roller.text(5) == "0.5 kg" && roller.text(9999) == "999.9 kg")
        #expect(roller.semantics.valueText == "72.5 kg" && roller.actions.isEmpty)
        let texts = try roller.drawings(theme: .light).flatMap { list in
            try DisplayListDecoder.decode(list.bytes).compactMap { op -> String? in
                if case let .text(s, _, _, _, _, _, _) = op { s } else { nil }
            }
        }
        #expect(texts.contains(".") && texts.contains("kg") && texts.contains("7") && texts.contains("5"))
    }

    @Test("the weight readout rolls after the ruler and settles on its value; only the ruler reports it")
    func readoutFollowsTheRuler() throws {
        var d = SceneDriver(RulerScene.make())
        let key = PointerKey(client: "a", pointer: 1)
        func pointer(_ phase: PointerPhase, _ x: Double, _ t: Double) {
            d.apply(.pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: 214), clientTime: t)), at: t)
        }
        pointer(.down, 300, 0)
        for i in 1...10 { pointer(.move, 300 - 25.7 * Double(i), 0.016 * Double(i)) }
        pointer(.up, 43, 0.3)
        d.settle()
        let readout = try #require(d.scene.semantics.first { $0.id == "readout" })
        #expect(readout.valueText == "75.1 kg")
        #expect(d.events.allSatisfy { $0.widget == "ruler" })
        let roller = try #require(d.scene.widget("readout") as? DigitRoller)
        #expect((0..<roller.columnCount).map { roller.row($0) } == [1, 5, 7])
    }

    @Test("reduced motion: the same roller drawn for those clients shows the number it heads for, never rolling")
    func reducedMotion() throws {
        var d = SceneDriver(RollerScene.make())
        d.apply(change(["n": 521, "animated": false]), at: 0)
        d.apply(change(["n": 542]), at: 1)
        d.apply(.leave(client: "x"), at: 1.5)  // mid-roll
        let roller = try #require(d.scene.widget("roller") as? DigitRoller)
        func digits(_ theme: Theme) throws -> [String] {
            try roller.drawings(theme: theme).flatMap { list in
                try DisplayListDecoder.decode(list.bytes).compactMap { op -> String? in
                    if case let .text(s, _, _, _, _, _, _) = op { s } else { nil }
                }
            }
        }
        #expect(try digits(Theme.light.reducingMotion(true)) == ["2", "4", "5"])
        #expect(try digits(.light) != ["2", "4", "5"])  // rolling: more than one row per column
        #expect(Theme.light.reducingMotion(true).renderKey != Theme.light.renderKey)
        #expect(roller.semantics.valueText == "521")  // the shared state is the same for everyone
    }

    @Test("not animated: the columns jump and the number is reported at once")
    func jump() {
        let d = run([(1, ["n": 987, "animated": false])])
        #expect(finals(d).map(\.t) == [0, 1] && finals(d).last?.n == 987)
    }

    @Test("the same reports at the same times at 30, 60 and 240 fps")
    func frameRates() {
        let changes: [(Double, [String: JSONValue])] = [(1, ["n": 542]), (1.3, ["n": 12_345]), (9, ["n": 3])]
        let reference = finals(run(changes))
        for fps in [30.0, 240.0] {
            let other = finals(run(changes, fps: fps))
            #expect(other.count == reference.count && zip(other, reference).allSatisfy { abs($0.t - $1.t) < 1e-9 })
        }
    }
}
