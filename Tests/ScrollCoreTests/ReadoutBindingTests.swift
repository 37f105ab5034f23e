import Testing

@testable import ScrollCore

/// Readouts follow their widget through the scene's bindings (Scene/ReadoutBinding.swift), and
/// say its value with the widget's own `NumberFormat` (WIDGETS.md §1: "72.5 kg").
@Suite struct ReadoutBindingTests {
    @Test("each catalog scene binds its readouts to their widgets by id")
    func catalogBindings() throws {
        func pairs(_ name: String) throws -> [String] {
            try #require(SceneCatalog.standard.make(name)).bindings.map { "\($0.source)→\($0.readout)" }
        }
        #expect(try pairs("demo") == ["ruler→readout", "picker→count", "carousel→itemName"])
        #expect(try pairs("ruler") == ["ruler→readout"])
        #expect(try pairs("picker") == ["picker→count"] && pairs("picker-free") == ["picker→count"])
        #expect(try pairs("carousel") == ["carousel→itemName"])
        #expect(try pairs("roller").isEmpty)
    }

    /// A label listed before the ruler it reads (as the weight readout is), and a ruler at 80 kg.
    static func labelled() -> (Scene, ReadoutLabel) {
        let label = ReadoutLabel(
            id: "label", frame: Rect(x: 0, y: 0, width: 390, height: 40), label: "W", format: WeightRuler.format)
        let ruler = WeightRuler(id: "scale", frame: DemoScene.rulerFrame, value: 80)
        let scene = Scene(
            size: Size(width: 390, height: 300), widgets: [label, ruler],
            bindings: [ReadoutBinding(source: "scale", readout: "label")])
        return (scene, label)
    }

    @Test("a new scene's readout starts on its widget's value; it shows every value the widget reaches")
    func labelFollows() {
        let (scene, label) = Self.labelled()
        #expect(label.text == "80.0 kg")
        // A key step eases over 0.2 s (WIDGETS.md §1); on the way the label shows where it is.
        scene.apply(.key("ArrowRight", widget: "scale"), at: 0)
        for t in stride(from: 0.02, through: 0.2, by: 0.02) {
            scene.advance(to: t)
            #expect(label.text == (scene.widget("scale") as? WeightRuler)?.valueText, "t \(t)")
        }
        scene.advance(to: 0.3)
        #expect(label.text == "80.1 kg")
        // An action, then a drag of 3 ticks to the left (content moves right: the value drops).
        scene.apply(.action(ActionInput(widget: "scale", name: "setValue", args: ["value": 75])), at: 1)
        scene.advance(to: 1.5)
        #expect(label.text == "75.0 kg")
        let key = PointerKey(client: "a", pointer: 1)
        for (phase, x, t) in [(PointerPhase.down, 200.0, 2.0), (.move, 230, 2.1), (.move, 230, 2.3), (.up, 230, 2.4)] {
            scene.apply(
                .pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: 214), clientTime: t)), at: t)
        }
        #expect(label.text == "74.7 kg")
    }

    @Test("restored, the readouts settle on their widgets' restored values, at rest")
    func restoredReadouts() throws {
        let (scene, label) = Self.labelled()
        scene.apply(.action(ActionInput(widget: "scale", name: "setValue", args: ["value": 12.3])), at: 0)
        scene.advance(to: 1)
        let (copy, copyLabel) = Self.labelled()
        try copy.restore(scene.snapshot())
        #expect(label.text == "12.3 kg" && copyLabel.text == "12.3 kg" && !copy.isAnimating)

        let demo = DemoScene.make(),
            snapshot = SceneSnapshot(
                scene: "demo",
                widgets: [
                    ("ruler", .object([("value", .number(80.3))])), ("picker", .object([("value", .number(37))])),
                ])
        try demo.restore(snapshot)
        let texts = Dictionary(uniqueKeysWithValues: demo.semantics.map { ($0.id, $0.valueText) })
        #expect(texts["readout"] == "80.3 kg" && texts["count"] == "37" && texts["itemName"] == "Star")
        #expect(!demo.isAnimating)
    }

    @Test("a readout roller rolls to each new value and the scene animates until it has arrived")
    func rollerArrives() throws {
        var d = SceneDriver(PickerScene.make())
        d.apply(.action(ActionInput(widget: "picker", name: "setValue", args: ["value": 42])), at: 0)
        d.settle()
        let count = try #require(d.scene.widget("count") as? DigitRoller)
        #expect(count.number == 42 && count.semantics.valueText == "42" && !d.scene.isAnimating)
        // Only the picker reports the value; the count says nothing of its own.
        #expect(d.events.allSatisfy { $0.widget == "picker" })
    }
}
