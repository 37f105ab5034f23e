import Testing

@testable import ScrollCore

/// Nothing about the demo scene is assumed by general code: keys without a widget go to the
/// scene's default focus, a wheel page is the page of the widget under it (docs/TRACES.md,
/// docs/PROTOCOL.md).
@Suite struct SceneFocusAndWheelTests {
    /// A readout (no keys) over two rulers that are not called "ruler"; the first is 200 pt wide.
    static func scene() -> Scene {
        let scale = WeightRuler(id: "scale", frame: Rect(x: 0, y: 150, width: 200, height: 128))
        let other = WeightRuler(id: "other", frame: Rect(x: 0, y: 300, width: 390, height: 128))
        let label = ReadoutLabel(
            id: "label", frame: Rect(x: 0, y: 0, width: 200, height: 80), label: "W", format: WeightRuler.format)
        return Scene(
            size: Size(width: 400, height: 500), widgets: [label, scale, other],
            bindings: [ReadoutBinding(source: "scale", readout: "label")])
    }

    func replay(_ trace: String) throws -> [String: Double] {
        let result = Replayer(makeScene: Self.scene).run(try TraceParser.parse(trace, name: "t"))
        return Dictionary(
            uniqueKeysWithValues: result.scene.semantics.compactMap { s in s.valueNow.map { (s.id, $0) } })
    }

    @Test("a key line without a widget goes to the first widget that handles keys")
    func defaultFocus() throws {
        #expect(Self.scene().defaultFocus?.id == "scale")
        #expect(try replay(#"{"t": 0, "type": "key", "key": "PageUp"}"#) == ["scale": 73.5, "other": 72.5])
        #expect(
            try replay(#"{"t": 0, "type": "key", "key": "PageUp", "widget": "other"}"#) == [
                "scale": 72.5, "other": 73.5,
            ])
        // A scene where nothing handles keys: the key goes nowhere.
        let quiet = Scene(size: Size(width: 10, height: 10), widgets: [])
        #expect(quiet.defaultFocus == nil)
        quiet.apply(.key("PageUp", widget: nil), at: 0)
        #expect(quiet.takeEvents().isEmpty)
    }

    @Test("a wheel page (deltaMode 2) is the width of the ruler under it; a line is 16 pt")
    func wheelUnits() throws {
        // WIDGETS.md §1: 10 pt per 0.1 kg. One page of the 200-pt ruler: +2.0 kg; of the 390-pt one: +3.9 kg.
        #expect(try replay(#"{"t": 0, "type": "wheel", "x": 100, "y": 200, "dy": 1, "deltaMode": 2}"#)["scale"] == 74.5)
        #expect(
            try replay(#"{"t": 0, "type": "wheel", "x": 100, "y": 350, "dx": -1, "deltaMode": 2}"#)["other"] == 68.6)
        // 5 lines × 16 pt = 80 pt: +0.8 kg, whatever the widget's size.
        #expect(try replay(#"{"t": 0, "type": "wheel", "x": 100, "y": 200, "dy": 5, "deltaMode": 1}"#)["scale"] == 73.3)
        #expect(try replay(#"{"t": 0, "type": "wheel", "x": 100, "y": 200, "dy": 30}"#)["scale"] == 72.8)
    }

    @Test("the recorder writes the widget on key lines, naming the default focus when the page did not")
    func recorderNamesTheWidget() throws {
        var recorder = TraceRecorder()
        let named = try ClientMessage.parse(#"{"type":"key","key":"PageUp","widget":"other","t":5}"#).get()
        let bare = try ClientMessage.parse(#"{"type":"key","key":"PageDown","t":6}"#).get()
        let lines =
            recorder.record(named, client: "a", roomTime: 1)
            + recorder.record(bare.naming(focus: Self.scene().defaultFocus?.id), client: "a", roomTime: 1.001)
        #expect(
            lines.map(\.jsonLine) == [
                #"{"t":1000,"at":1000,"type":"key","key":"PageUp","widget":"other"}"#,
                #"{"t":1001,"at":1001,"type":"key","key":"PageDown","widget":"scale"}"#,
            ])
    }

    @Test("the ruler's keys are the documented ones, each with its documented step")
    func rulerKeys() throws {
        // docs/PROTOCOL.md, key: ←/↓ −0.1, →/↑ +0.1, PageDown −1.0, PageUp +1.0, Home the
        // first label (9.0 kg), End the last (999.0 kg).
        let documented: [String: Double] = [
            "ArrowLeft": 72.4, "ArrowDown": 72.4, "ArrowRight": 72.6, "ArrowUp": 72.6,
            "PageDown": 71.5, "PageUp": 73.5, "Home": 9.0, "End": 999.0,
        ]
        let scene = DemoScene.make()
        #expect(Set(try #require(scene.widget("ruler")).keys) == Set(documented.keys))
        for (key, value) in documented {
            let values = try replay(#"{"t": 0, "type": "key", "key": "\#(key)", "widget": "other"}"#)
            #expect(abs(try #require(values["other"]) - value) < 1e-9, "\(key)")
        }
        let ruler = WeightRuler(frame: DemoScene.rulerFrame)
        var events: [SceneEvent] = []
        for key in ["Enter", "Tab", " ", "a"] { #expect(!ruler.key(key, at: 0, events: &events), "\(key)") }
    }
}
