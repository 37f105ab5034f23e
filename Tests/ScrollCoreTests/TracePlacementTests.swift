import Foundation
import Testing

@testable import ScrollCore

/// A trace written for a widget's own scene, placed into `demo` (where `widget-load soak`
/// plays it): the widget is the same there, only elsewhere, so the replay must give the
/// same values and events as the trace's expected file (derived from the spec for the
/// widget's own scene).
@Suite struct TracePlacementTests {
    /// The golden traces of one widget's own scene (picker-free's picker does not snap in
    /// demo; demo's own traces need no placing).
    static let traces = TraceFiles.all.filter { name in
        guard let scene = try? TraceFiles.sceneName(name) else { return false }
        return scene != DemoScene.name && scene != PickerScene.freeName
    }

    @Test("the picker's lines move down 240 pt: its frame is at y 60 in its scene, y 300 in demo")
    func pickerOffset() throws {
        let entries = try TraceFiles.entries("picker-fling.jsonl")
        let placed = try #require(TraceEntry.placed(entries, from: PickerScene.make(), into: DemoScene.make()))
        // picker-fling's drag runs at y 95 (the picker's row, 60…130); demo's is 300…370
        // (shared-capture-picker drags it at y 335).
        #expect(entries.allSatisfy { $0.y == 95 })
        #expect(placed.allSatisfy { $0.y == 335 })
        #expect(zip(entries, placed).allSatisfy { $0.x == $1.x && $0.t == $1.t && $0.type == $1.type })
    }

    @Test("a key line that named no widget names the source scene's default focus")
    func keyFocus() throws {
        let entries = try TraceFiles.entries("picker-keys.jsonl")
        let home = try #require(entries.last)
        #expect(home.type == .key && home.key == "Home" && home.widget == nil)
        let placed = try #require(TraceEntry.placed(entries, from: PickerScene.make(), into: DemoScene.make()))
        // In demo the default focus is the ruler; the trace meant the picker.
        #expect(DemoScene.make().defaultFocus?.id == "ruler")
        #expect(placed.last?.widget == "picker")
    }

    @Test("a scene whose widgets the target lacks cannot be placed")
    func refused() throws {
        let entries = try TraceFiles.entries("demo-both.jsonl")
        #expect(TraceEntry.placed(entries, from: DemoScene.make(), into: PickerScene.make()) == nil)
    }

    @Test("placed into demo, each widget trace gives its expected values and events", arguments: traces)
    func sameOutcome(trace: String) throws {
        let source = try #require(SceneCatalog.standard.make(try TraceFiles.sceneName(trace)))
        let placed = try #require(
            TraceEntry.placed(try TraceFiles.entries(trace), from: source, into: DemoScene.make()))
        let result = Replayer(fps: 60, makeScene: { DemoScene.make() }).run(placed)
        let actual = try plainJSON(result.json)
        let expected = try TraceFiles.expected(trace)
        let widgets = try #require(actual["widgets"] as? [String: [String: Any]])
        for (id, fields) in try #require(expected["widgets"] as? [String: [String: Any]]) {
            #expect(widgets[id]?["text"] as? String == fields["text"] as? String, "\(id).text")
            #expect(widgets[id]?["value"] as? Double == fields["value"] as? Double, "\(id).value")
        }
        let events = try #require(actual["events"] as? [[String: Any]])
        let expectedEvents = try #require(expected["events"] as? [[String: Any]])
        #expect(events.count == expectedEvents.count)
        for (i, (a, e)) in zip(events, expectedEvents).enumerated() {
            #expect(a["widget"] as? String == e["widget"] as? String, "event \(i).widget")
            #expect(a["type"] as? String == e["type"] as? String, "event \(i).type")
            #expect(a["value"] as? Double == e["value"] as? Double, "event \(i).value")
            #expect(a["index"] as? Double == e["index"] as? Double, "event \(i).index")
            let t = try #require(a["t"] as? Double), te = try #require(e["t"] as? Double)
            #expect(abs(t - te) <= 1e-6, "event \(i).t = \(t), expected \(te)")
        }
    }
}
