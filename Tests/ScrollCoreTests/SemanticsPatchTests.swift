import Testing

@testable import ScrollCore

/// docs/PROTOCOL.md, `semantics`: a message may carry only what changed since the one before
/// (`changed`, by widget id, a field that went as null), and a client merges it into the list it has.
@Suite struct SemanticsPatchTests {
    static let rect = Rect(x: 0, y: 0, width: 10, height: 10)

    /// A mirror that took `texts` in order, and what each `take` returned.
    static func mirror(_ texts: String...) -> (mirror: SemanticsMirror, took: [Bool]) {
        var mirror = SemanticsMirror()
        let took = texts.map { mirror.take(text: $0) }
        return (mirror, took)
    }

    /// The ruler scene's semantics with the ruler on `kg`.
    static func ruler(_ kg: Double) -> [JSONValue] {
        RulerScene.make(rulerValue: kg).semantics.map(\.json)
    }

    @Test("a settled value: the ruler's id, valueNow and valueText only, 85 B for a whole message of 487 B")
    func settledValue() throws {
        // The ruler has settled on 87.4 kg; its readout still shows 72.5 (it rolls there next).
        var settled = RulerScene.make(rulerValue: 72.5).semantics
        let ruler = try #require(settled.firstIndex { $0.id == "ruler" })
        settled[ruler].valueNow = 87.4
        settled[ruler].valueText = "87.4 kg"
        let (old, new) = (Self.ruler(72.5), settled.map(\.json))
        let full = ServerMessage.semantics(json: new)
        let patch = try #require(SemanticsPatch.message(from: old, to: new, full: full))
        #expect(patch == #"{"type":"semantics","changed":[{"id":"ruler","valueNow":87.4,"valueText":"87.4 kg"}]}"#)
        #expect(patch.utf8.count == 85 && full.utf8.count == 487)
    }

    @Test("a field that went is sent as null, one that came with its value; merged, the new list")
    func fieldsComeAndGo() throws {
        let held = Semantics(id: "plus", role: "button", label: "+1", frame: Self.rect, valueText: "pressed")
        var free = held
        free.valueText = nil
        free.catches = 3
        let still = Semantics(id: "label", role: "status", label: "Name", frame: Self.rect, valueText: "Leaf")
        let (old, new) = ([still, held].map(\.json), [still, free].map(\.json))
        let changed = try #require(SemanticsPatch.changes(from: old, to: new))
        #expect(
            JSONValue.array(changed).serialized == #"[{"id":"plus","catches":{"layer":3},"valueText":null}]"#)
        #expect(SemanticsPatch.apply(changed, to: old) == new)
        #expect(SemanticsPatch.changes(from: new, to: new) == [])
    }

    @Test("no patch when the widgets themselves differ: one added, one gone, two swapped")
    func widgetsDiffer() {
        let a = Semantics(id: "a", role: "status", label: "A", frame: Self.rect).json
        let b = Semantics(id: "b", role: "status", label: "B", frame: Self.rect).json
        #expect(SemanticsPatch.changes(from: [a], to: [a, b]) == nil)
        #expect(SemanticsPatch.changes(from: [a, b], to: [a]) == nil)
        #expect(SemanticsPatch.changes(from: [a, b], to: [b, a]) == nil)
        #expect(SemanticsPatch.changes(from: [a, b], to: [a, b]) == [])
    }

    @Test("no patch unless it is shorter than the whole message: `changed` is as long as `widgets`")
    func notShorter() {
        let old: [JSONValue] = [.object([("id", "a"), ("role", "x")])]
        let new: [JSONValue] = [.object([("id", "a"), ("role", "y")])]
        let full = ServerMessage.semantics(json: new)
        #expect(full == #"{"type":"semantics","widgets":[{"id":"a","role":"y"}]}"#)
        #expect(SemanticsPatch.changes(from: old, to: new) == [.object([("id", "a"), ("role", "y")])])
        #expect(SemanticsPatch.message(from: old, to: new, full: full) == nil)
    }

    @Test("the carousel's selection: its options go whole; merged, the new list, also through a client's mirror")
    func carouselSelection() throws {
        let scene = CarouselScene.make()
        let old = scene.semantics.map(\.json)
        scene.apply(.action(ActionInput(widget: "carousel", name: "select", args: ["index": 3])), at: 0)
        scene.advance(to: 5)
        let new = scene.semantics.map(\.json)
        let changed = try #require(SemanticsPatch.changes(from: old, to: new))
        #expect(changed.count == 2)
        #expect(SemanticsPatch.apply(changed, to: old) == new)
        let full = ServerMessage.semantics(json: new)
        let patch = try #require(SemanticsPatch.message(from: old, to: new, full: full))
        let patched = Self.mirror(ServerMessage.semantics(json: old), patch), whole = Self.mirror(full)
        #expect(patched.took == [true, true] && whole.took == [true])
        #expect(patched.mirror.message == whole.mirror.message)
    }

    @Test("a field a patch brings back: the mirror's message reads as the whole message's does")
    func fieldBack() throws {
        let free = Semantics(id: "plus", role: "button", label: "+1", frame: Self.rect, keys: ["Enter"])
        var held = free
        held.valueText = "pressed"
        let full = ServerMessage.semantics([held])
        let patch = try #require(SemanticsPatch.message(from: [free.json], to: [held.json], full: full))
        #expect(patch == #"{"type":"semantics","changed":[{"id":"plus","valueText":"pressed"}]}"#)
        let patched = Self.mirror(ServerMessage.semantics([free]), patch).mirror, whole = Self.mirror(full).mirror
        // In `widgets` the field came back last; the message puts every field in name order.
        #expect(patched.widgets != whole.widgets)
        #expect(patched.message == whole.message)
        #expect(
            patched.message
                == #"{"type":"semantics","widgets":[{"actions":[],"id":"plus","keys":["Enter"],"label":"+1","#
                + #""rect":[0,0,10,10],"role":"button","valueText":"pressed"}]}"#)
    }

    @Test("a mirror passes over a patch before any whole message, and after forgetting")
    func mirrorWithoutList() throws {
        let patch = try #require(
            SemanticsPatch.message(
                from: Self.ruler(72.5), to: Self.ruler(80), full: ServerMessage.semantics(json: Self.ruler(80))))
        let early = Self.mirror(patch)
        #expect(early.took == [false] && early.mirror.widgets == nil && early.mirror.message == nil)
        var (mirror, took) = Self.mirror(ServerMessage.semantics(json: Self.ruler(72.5)), patch)
        #expect(took == [true, true] && mirror.widgets == Self.ruler(80))
        mirror.forget()
        let again = mirror.take(text: patch)
        #expect(!again && mirror.widgets == nil)
        // Not a semantics message, or not JSON: nothing changes.
        let other = Self.mirror(
            ServerMessage.semantics(json: Self.ruler(80)), #"{"type":"presence","clients":[]}"#, "{")
        #expect(other.took == [true, false, false] && other.mirror.widgets == Self.ruler(80))
    }
}
