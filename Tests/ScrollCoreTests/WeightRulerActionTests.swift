import Testing

@testable import ScrollCore

/// docs/PROTOCOL.md, `action`: widgets driven by name. The ruler's `setValue {"value": kg}`
/// animates like a key step (0.2 s) to the tick of that value and reports it once, at rest.
@Suite struct WeightRulerActionTests {
    /// Applies `inputs` at their times to a fresh demo scene, ticking at `fps` while anything
    /// moves, until it rests; returns the scene and every event.
    func run(_ inputs: [(Double, SceneInput)], fps: Double = 60, start: Double = 72.5) -> (Scene, [SceneEvent]) {
        var driver = SceneDriver(DemoScene.make(rulerValue: start), fps: fps)
        for (time, input) in inputs { driver.apply(input, at: time) }
        driver.settle()
        return (driver.scene, driver.events)
    }

    func setValue(_ value: JSONValue, widget: String? = "ruler") -> SceneInput {
        .action(ActionInput(widget: widget, name: "setValue", args: ["value": value]))
    }

    func finals(_ events: [SceneEvent]) -> [(time: Double, value: Double)] {
        events.compactMap { if case let .value(v, _, true) = $0.kind { ($0.time, v) } else { nil } }
    }

    @Test("setValue lands exactly on the value, 0.2 s later, with exactly one final event")
    func landsOnTheValue() throws {
        let (scene, events) = run([(1.0, setValue(80.3))])
        let f = finals(events)
        #expect(f.count == 1)
        #expect(f.first?.value == 80.3)
        #expect(abs((f.first?.time ?? 0) - 1.2) < 1e-9)
        #expect(scene.semantics.first { $0.id == "ruler" }?.valueNow == 80.3)
        #expect(scene.semantics.first { $0.id == "ruler" }?.valueText == "80.3 kg")
        #expect(scene.semantics.first { $0.id == "readout" }?.valueText == "80.3 kg")
        // While moving it reports like a drag: at most one value every 16 ms, none final.
        let moving = events.filter { if case .value(_, _, false) = $0.kind { true } else { false } }
        #expect(!moving.isEmpty)
        #expect(zip(moving, moving.dropFirst()).allSatisfy { $1.time - $0.time >= ValueReporter.interval - 1e-9 })
    }

    @Test("the value is taken to 0.1 kg; the edges of the labels are reachable; the current value still reports once")
    func precisionAndRange() {
        #expect(finals(run([(0, setValue(80.34))]).1).map(\.value) == [80.3])
        #expect(finals(run([(0, setValue(80.36))]).1).map(\.value) == [80.4])
        #expect(finals(run([(0, setValue(8.5))]).1).map(\.value) == [8.5])
        #expect(finals(run([(0, setValue(999.4))]).1).map(\.value) == [999.4])
        #expect(finals(run([(0, setValue(72.5))]).1).map(\.value) == [72.5])
    }

    @Test("past 999.4 the labels wrap onto block 9 (WIDGETS.md §1): 999.7 is 8.7, reached the short way")
    func wraps() {
        let (_, events) = run([(0, setValue(999.7))], start: 998.0)
        #expect(finals(events).map(\.value) == [8.7])
        // 998.0 → 999.4 → 8.5 → 8.7 is 17 ticks; the long way would pass through 500 kg.
        let passed = events.compactMap { if case let .value(v, _, false) = $0.kind { v } else { nil } }
        #expect(passed.allSatisfy { $0 >= 998.0 || $0 <= 8.7 }, "\(passed)")
        let (_, back) = run([(0, setValue(998.0))], start: 9.0)
        #expect(finals(back).map(\.value) == [998.0])
        #expect(back.allSatisfy { if case let .value(v, _, _) = $0.kind { v >= 998.0 || v <= 9.0 } else { true } })
    }

    @Test("an unknown widget or action is refused, naming them; nothing changes")
    func unknownTargets() {
        let scene = DemoScene.make()
        #expect(
            throws: ActionError(
                "no widget \"foo\" in this scene (widgets: readout, ruler, picker, count, carousel, itemName, roller, rollerPlus1, rollerPlus9, rollerPlus99, rollerMinus1, rollerRandom)"
            )
        ) {
            try scene.check(ActionInput(widget: "foo", name: "setValue", args: ["value": 80]))
        }
        #expect(throws: ActionError("no action \"spin\" on widget \"ruler\" (it has: setValue)")) {
            try scene.check(ActionInput(widget: "ruler", name: "spin"))
        }
        #expect(throws: ActionError("no action \"setValue\" on widget \"readout\" (it has: none)")) {
            try scene.check(ActionInput(widget: "readout", name: "setValue", args: ["value": 80]))
        }
        #expect(throws: ActionError("no widget named, and none in this scene takes focus")) {
            try Scene(size: Size(width: 1, height: 1), widgets: []).check(ActionInput(widget: nil, name: "setValue"))
        }
        scene.apply(.action(ActionInput(widget: "foo", name: "setValue", args: ["value": 80])), at: 0.5)
        #expect(!scene.isAnimating && scene.takeEvents().isEmpty)
    }

    @Test(
        "bad arguments are refused naming the argument",
        arguments: [
            (nil, "setValue on \"ruler\": args.value is required"),
            (JSONValue.null, "setValue on \"ruler\": args.value is required"),
            (JSONValue.string("80"), "setValue on \"ruler\": args.value must be a finite number within 8.5…999.9"),
            (JSONValue.bool(true), "setValue on \"ruler\": args.value must be a finite number within 8.5…999.9"),
            (JSONValue.number(1000), "setValue on \"ruler\": args.value must be a finite number within 8.5…999.9"),
            (JSONValue.number(8.4), "setValue on \"ruler\": args.value must be a finite number within 8.5…999.9"),
            (JSONValue.number(.nan), "setValue on \"ruler\": args.value must be a finite number within 8.5…999.9"),
            (JSONValue.array([80]), "setValue on \"ruler\": args.value must be a finite number within 8.5…999.9"),
        ])
    func badArguments(value: JSONValue?, message: String) {
        let scene = DemoScene.make()
        let action = ActionInput(widget: "ruler", name: "setValue", args: value.map { ["value": $0] } ?? [:])
        #expect(throws: ActionError(message)) { try scene.check(action) }
        scene.apply(.action(action), at: 0)
        #expect(!scene.isAnimating && scene.takeEvents().isEmpty)
        #expect(scene.semantics.first { $0.id == "ruler" }?.valueNow == 72.5)
    }

    @Test("no widget named: the action goes to the default focus")
    func defaultFocus() {
        #expect(finals(run([(0, setValue(75, widget: nil))]).1).map(\.value) == [75])
    }

    @Test("a finger on the ruler wins: setValue is ignored while it is held")
    func fingerWins() {
        let key = PointerKey(client: "a", pointer: 1)
        func p(_ phase: PointerPhase, _ x: Double, _ t: Double) -> SceneInput {
            .pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: 214), clientTime: t))
        }
        // Held 100 pt left of where it went down (+1.0 kg), still for 0.2 s before lifting.
        let (_, events) = run([
            (0, p(.down, 300, 0)), (0.05, p(.move, 200, 0.05)), (0.1, setValue(80)), (0.3, p(.up, 200, 0.3)),
        ])
        #expect(finals(events).map(\.value) == [73.5])
    }

    @Test("after a fling, a key and a setValue: the same finals at the same times at 30, 60 and 240 fps")
    func deterministic() throws {
        let key = PointerKey(client: "a", pointer: 1)
        func p(_ phase: PointerPhase, _ x: Double, _ t: Double) -> SceneInput {
            .pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: 214), clientTime: t))
        }
        // A fling to the left at 1200 pt/s, a PageUp during the glide, then setValue during the key step.
        let moves = (1...10).map { i in (Double(i) / 100, p(.move, 300 - 12 * Double(i), Double(i) / 100)) }
        let inputs: [(Double, SceneInput)] =
            [(0, p(.down, 300, 0))] + moves + [
                (0.1, p(.up, 180, 0.1)), (0.5, .key("PageUp", widget: "ruler")), (0.6, setValue(123.4)),
            ]
        let runs = [30.0, 60.0, 240.0].map { finals(run(inputs, fps: $0).1) }
        for r in runs {
            // The key lands only if the glide is not interrupted; the setValue interrupts it: one final.
            #expect(r.map(\.value) == [123.4])
            #expect(r.count == runs[1].count)
            for (a, b) in zip(r, runs[1]) { #expect(abs(a.time - b.time) < 1e-9) }
        }
        #expect(abs((runs[1].first?.time ?? 0) - 0.8) < 1e-9)
    }
}
