import Testing

@testable import ScrollCore

/// What has settled is kept across restarts, so a restarted server gives each room back as it
/// was (docs/STATE.md): each widget driven to rest, snapshotted as JSON text, restored into a
/// new scene of the catalog: the same values, items and selection, the same semantics and the
/// same drawing, in every theme.
@Suite("Scene snapshots: save and restore what has settled")
struct SceneSnapshotTests {
    static let themes = Theme.all + Theme.all.map { $0.reducingMotion(true) }

    /// Drives a scene of `name` in virtual time, then lets it come to rest.
    private func settled(_ name: String, _ inputs: [(SceneInput, Double)]) throws -> Scene {
        var driver = SceneDriver(try #require(SceneCatalog.standard.make(name)))
        for (input, t) in inputs { driver.apply(input, at: t) }
        driver.settle()
        return driver.scene
    }

    /// A new scene of the same name, restored from `scene`'s snapshot as stored (its text).
    private func restored(from scene: Scene) throws -> Scene {
        let copy = try #require(SceneCatalog.standard.make(scene.name))
        try copy.restore(SceneSnapshot(parsing: scene.snapshot().text))
        return copy
    }

    private func expectSameLook(_ a: Scene, _ b: Scene, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.semantics == b.semantics, sourceLocation: sourceLocation)
        for theme in Self.themes {
            #expect(differingLayers(a, b, theme) == [], "theme \(theme.renderKey)", sourceLocation: sourceLocation)
        }
        #expect(!b.isAnimating, "a restored scene is at rest", sourceLocation: sourceLocation)
    }

    /// The ids of the layers drawn differently (a whole frame is too long to print). A ruler's
    /// layer is compared by what it shows: at rest after a glide it keeps the glide's drawing.
    private func differingLayers(_ a: Scene, _ b: Scene, _ theme: Theme = .light) -> [UInt16] {
        let x = a.render(theme: theme), y = b.render(theme: theme)
        guard x.count == y.count else { return [UInt16.max] }
        let rulers = Dictionary(
            a.widgets.enumerated().compactMap { i, w in w is WeightRuler ? (UInt16(i + 1), w.frame) : nil },
            uniquingKeysWith: { first, _ in first })
        let carousels = Set(a.widgets.enumerated().compactMap { i, w in w is Carousel ? UInt16(i + 1) : nil })
        return zip(x, y).filter { l, r in
            guard l != r else { return false }
            guard l.id == r.id else { return true }
            if carousels.contains(l.id) { return !samePainted(l, r, at: a.time) }
            guard let frame = rulers[l.id] else { return true }
            let shown = try? ScreenGeometry.sameShown((l.list.bytes, l.offset), (r.list.bytes, r.offset), within: frame)
            return shown != true
        }.map(\.0.id)
    }

    /// Whether two carousel layers paint the same shapes (tiles and glyphs, where and in which
    /// fill) and names (those not faded out: alpha above 10⁻⁶) at `time`:
    /// a carousel keeps its last add's or delete's drawing, finished tweens and all, where a
    /// restored one draws its items plainly; the same picture in other bytes.
    private func samePainted(_ l: Layer, _ r: Layer, at time: Double) -> Bool {
        guard let p = try? PaintedShapes(l.list, offset: l.offset, time: time),
            let q = try? PaintedShapes(r.list, offset: r.offset, time: time)
        else { return false }
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-3 }
        let (ps, qs) = (p.shapes.filter { $0.alpha > 1e-6 }, q.shapes.filter { $0.alpha > 1e-6 })
        let (pl, ql) = (p.labels.filter { $0.alpha > 1e-6 }, q.labels.filter { $0.alpha > 1e-6 })
        return ps.count == qs.count && pl.count == ql.count
            && zip(ps, qs).allSatisfy { a, b in
                a.kind == b.kind && a.fill == b.fill && near(a.alpha, b.alpha) && a.points.count == b.points.count
                    && zip(a.points, b.points).allSatisfy { near($0.x, $1.x) && near($0.y, $1.y) }
            }
            && zip(pl, ql).allSatisfy { a, b in
                a.text == b.text && near(a.x, b.x) && near(a.y, b.y) && near(a.size, b.size) && near(a.alpha, b.alpha)
            }
    }

    private func action(_ widget: String, _ name: String, _ args: [String: JSONValue] = [:]) -> SceneInput {
        .action(ActionInput(widget: widget, name: name, args: args))
    }

    private func pointer(_ phase: PointerPhase, x: Double, y: Double, t: Double) -> SceneInput {
        .pointer(
            PointerInput(
                phase: phase, key: PointerKey(client: "c1", pointer: 1), position: Point(x: x, y: y), clientTime: t))
    }

    private func ruler(_ scene: Scene) throws -> WeightRuler { try #require(scene.widget("ruler") as? WeightRuler) }
    private func roller(_ scene: Scene, _ id: String) throws -> DigitRoller {
        try #require(scene.widget(id) as? DigitRoller)
    }

    // MARK: ruler

    @Test("the ruler and its readout come back at the value it rested on, 80.3 kg")
    func ruler() throws {
        let scene = try settled("ruler", [(action("ruler", "setValue", ["value": 80.3]), 1)])
        #expect(
            scene.snapshot().text
                == #"{"format":1,"scene":"ruler","widgets":{"readout":{"columns":3},"ruler":{"value":80.3}}}"#)
        let copy = try restored(from: scene)
        #expect(try ruler(copy).value == 80.3)
        #expect(try roller(copy, "readout").number == 803)
        expectSameLook(scene, copy)
    }

    @Test("past 999.4 the ruler wraps to 8.5 (WIDGETS.md §1): the wrapped value is what is kept")
    func rulerAcrossTheWrap() throws {
        // 999.4 then one tick on (ArrowRight) lands on 8.5; the readout has grown to 4 columns.
        let scene = try settled(
            "ruler", [(action("ruler", "setValue", ["value": 999.4]), 1), (.key("ArrowRight", widget: "ruler"), 4)])
        #expect(try ruler(scene).value == 8.5)
        let copy = try restored(from: scene)
        #expect(try ruler(copy).value == 8.5)
        #expect(try roller(copy, "readout").columnCount == 4, "columns only grow: the readout keeps its four")
        expectSameLook(scene, copy)
    }

    @Test("a drag in progress is not kept: the snapshot holds the value the ruler last rested on")
    func rulerMidDrag() throws {
        var driver = SceneDriver(try #require(SceneCatalog.standard.make("ruler")))
        driver.apply(action("ruler", "setValue", ["value": 80.3]), at: 1)
        driver.settle()
        // A finger down and 100 pt to the left (1.0 kg on), not lifted.
        driver.apply(pointer(.down, x: 300, y: 214, t: 5000), at: 5)
        for i in 1...10 {
            driver.apply(
                pointer(.move, x: 300 - 10 * Double(i), y: 214, t: 5000 + 16 * Double(i)), at: 5 + 0.016 * Double(i))
        }
        #expect(try ruler(driver.scene).value == 81.3)
        #expect(try ruler(restored(from: driver.scene)).value == 80.3)
    }

    // MARK: picker

    @Test("the picker and its count come back at 37")
    func picker() throws {
        let scene = try settled("picker", [(action("picker", "setValue", ["value": 37]), 1)])
        #expect(
            scene.snapshot().text
                == #"{"format":1,"scene":"picker","widgets":{"picker":{"value":37},"count":{"columns":2}}}"#)
        let copy = try restored(from: scene)
        #expect(try #require(copy.widget("picker") as? TickPicker).value == 37)
        #expect(try roller(copy, "count").number == 37)
        expectSameLook(scene, copy)
    }

    @Test("picker-free stops between ticks; it comes back at the same offset, not on the tick")
    func pickerFreeStop() throws {
        // A flick to the left: 8 moves of 12 pt, 8 ms apart, lifted while moving.
        var inputs: [(SceneInput, Double)] = [(pointer(.down, x: 300, y: 95, t: 1000), 1)]
        for i in 1...8 {
            inputs.append(
                (pointer(.move, x: 300 - 12 * Double(i), y: 95, t: 1000 + 8 * Double(i)), 1 + 0.008 * Double(i)))
        }
        inputs.append((pointer(.up, x: 204, y: 95, t: 1064), 1.064))
        let scene = try settled("picker-free", inputs)
        let picker = try #require(scene.widget("picker") as? TickPicker)
        #expect(picker.contentOffset.truncatingRemainder(dividingBy: 10) != 0, "it must have stopped between ticks")
        let copy = try restored(from: scene)
        let back = try #require(copy.widget("picker") as? TickPicker)
        #expect(back.value == picker.value)
        #expect(back.contentOffset == picker.contentOffset)
        expectSameLook(scene, copy)
    }

    // MARK: carousel

    @Test("the carousel keeps its items, added and deleted, and the settled selection; numbering carries on")
    func carousel() throws {
        let scene = try settled(
            "carousel",
            [
                (action("carousel", "add", ["name": "Kiwi"]), 1), (action("carousel", "delete", ["index": 0]), 2),
                (action("carousel", "select", ["index": 1]), 3),
            ])
        let carousel = try #require(scene.widget("carousel") as? Carousel)
        #expect(carousel.names == ["Moon", "Star", "Heart", "Leaf", "Kiwi", "Custom"])
        #expect(carousel.selection == 1 && carousel.selectedName == "Star")
        let copy = try restored(from: scene)
        let back = try #require(copy.widget("carousel") as? Carousel)
        #expect(back.names == ["Moon", "Star", "Heart", "Leaf", "Kiwi", "Custom"])
        #expect(back.selection == 1 && back.selectedName == "Star")
        #expect(copy.semantics.first { $0.id == "itemName" }?.valueText == "Star")
        expectSameLook(scene, copy)

        // Seven items were made (six, then Kiwi): the next add is "Item 8" in both.
        for s in [scene, copy] {
            s.apply(action("carousel", "add"), at: s.time + 1)
            #expect(s.takeEvents().contains { $0.kind == .added(index: 5, name: "Item 8") })
        }
        expectSameLookAfterSettling(scene, copy)
    }

    private func expectSameLookAfterSettling(_ a: Scene, _ b: Scene) {
        for s in [a, b] { s.advance(to: s.time + 2) }
        #expect(a.semantics == b.semantics)
        #expect(differingLayers(a, b) == [])
    }

    @Test("every item but Custom deleted: the carousel comes back with Custom alone")
    func carouselEmptied() throws {
        let deletes = (0..<5).map { (action("carousel", "delete", ["index": 0]), 1 + Double($0)) }
        let scene = try settled("carousel", deletes)
        let copy = try restored(from: scene)
        #expect(try #require(copy.widget("carousel") as? Carousel).names == ["Custom"])
        expectSameLook(scene, copy)
    }

    // MARK: roller

    @Test("the roller comes back at 108 after +99 and +9")
    func roller() throws {
        let scene = try settled("roller", [(action("rollerPlus99", "press"), 1), (action("rollerPlus9", "press"), 10)])
        #expect(try roller(scene, "roller").number == 108)
        #expect(
            scene.snapshot().text
                == #"{"format":1,"scene":"roller","widgets":{"roller":{"number":108,"queue":[],"columns":3}}}"#)
        let copy = try restored(from: scene)
        #expect(try roller(copy, "roller").number == 108)
        expectSameLook(scene, copy)
    }

    @Test("columns only grow: at 5 after 12345 the roller keeps its five columns")
    func rollerColumns() throws {
        let scene = try settled(
            "roller", [(action("roller", "changeTo", ["n": 12345]), 1), (action("roller", "changeTo", ["n": 5]), 20)])
        let copy = try restored(from: scene)
        #expect(try roller(copy, "roller").columnCount == 5)
        expectSameLook(scene, copy)
    }

    @Test("a roller stopped mid-roll keeps its queue and comes back landed on the newest change, at rest")
    func rollerQueue() throws {
        // +1 rolls 0 → 1; 500 arrives while it rolls and waits.
        let scene = try #require(SceneCatalog.standard.make("roller"))
        scene.apply(action("rollerPlus1", "press"), at: 1)
        scene.apply(action("roller", "changeTo", ["n": 500]), at: 1.05)
        _ = scene.takeEvents()
        #expect(
            scene.snapshot().text
                == #"{"format":1,"scene":"roller","widgets":{"roller":{"number":0,"queue":[1,500],"columns":1}}}"#)
        let copy = try restored(from: scene)
        let back = try roller(copy, "roller")
        #expect(back.number == 500)
        #expect(!copy.isAnimating, "it lands without rolling")
        #expect(copy.semantics.first { $0.id == "roller" }?.valueText == "500")
        copy.advance(to: 10)
        #expect(copy.takeEvents().isEmpty, "nothing rolls and nothing is reported after the restore")
        // The same as the original once its rolls are over.
        var driver = SceneDriver(scene)
        driver.settle()
        #expect(differingLayers(copy, scene) == [])
    }

    // MARK: demo (every widget at once)

    @Test("the demo scene keeps what every widget has settled on at once")
    func demo() throws {
        let scene = try settled(
            "demo",
            [
                (action("ruler", "setValue", ["value": 64.2]), 1), (action("picker", "setValue", ["value": 99]), 2),
                (action("carousel", "delete", ["index": 2]), 3), (action("carousel", "add", ["name": "Fig"]), 4),
                (action("roller", "changeTo", ["n": 2026]), 5),
            ])
        let copy = try restored(from: scene)
        #expect(try ruler(copy).value == 64.2)
        #expect(try #require(copy.widget("picker") as? TickPicker).value == 99)
        #expect(
            try #require(copy.widget("carousel") as? Carousel).names == [
                "Sun", "Moon", "Heart", "Leaf", "Fig", "Custom",
            ])
        #expect(try #require(copy.widget("carousel") as? Carousel).selectedName == "Fig")
        #expect(try roller(copy, "roller").number == 2026)
        expectSameLook(scene, copy)
    }

    // MARK: refusals

    private func refusal(_ scene: String, _ text: String) throws -> String {
        let fresh = try #require(SceneCatalog.standard.make(scene))
        do {
            try fresh.restore(SceneSnapshot(parsing: text))
        } catch {
            return error.message
        }
        Issue.record("restored: \(text)")
        return ""
    }

    @Test("a snapshot that does not fit is refused with a reason naming the widget and the field")
    func refusals() throws {
        func snapshotText(_ scene: String, _ widgets: String) -> String {
            #"{"format":1,"scene":"\#(scene)","widgets":\#(widgets)}"#
        }
        let cases: [(scene: String, text: String, reason: String)] = [
            ("ruler", "not json", "the snapshot is not JSON"),
            (
                "ruler", #"{"format":2,"scene":"ruler","widgets":{}}"#,
                "snapshot format 2 is not 1 (written by another version?)"
            ),
            ("ruler", #"{"format":1,"scene":"ruler"}"#, "snapshot: widgets is missing"),
            ("ruler", snapshotText("picker", "{}"), #"a snapshot of scene "picker" cannot restore scene "ruler""#),
            (
                "ruler", snapshotText("ruler", #"{"dial":{"value":1}}"#),
                #"no widget "dial" in scene "ruler" (widgets: readout, ruler)"#
            ),
            (
                "ruler", snapshotText("ruler", #"{"ruler":{"value":1000.5}}"#),
                "ruler: value must be a finite number within 8.5…999.9"
            ),
            ("ruler", snapshotText("ruler", #"{"ruler":{"value":80,"speed":1}}"#), #"ruler: unknown field "speed""#),
            ("ruler", snapshotText("ruler", #"{"ruler":[80]}"#), "ruler: must be an object"),
            (
                "picker", snapshotText("picker", #"{"picker":{"value":101}}"#),
                "picker: value must be an integer in 0…100"
            ),
            (
                "picker", snapshotText("picker", #"{"picker":{"value":5,"offset":52}}"#),
                #"picker: unknown field "offset""#
            ),
            (
                "picker-free", snapshotText("picker-free", #"{"picker":{"value":5,"offset":57}}"#),
                "picker: offset must be a number of points from 45 to 55, where value 5 rests"
            ),
            (
                "carousel", snapshotText("carousel", #"{"carousel":{"items":[],"selected":0,"made":6}}"#),
                "carousel: items must be a list of 1–50 items"
            ),
            (
                "carousel",
                snapshotText(
                    "carousel",
                    #"{"carousel":{"items":[{"id":0,"name":"Custom","icon":"custom"},{"id":1,"name":"Sun","icon":"sun"}],"selected":0,"made":6}}"#
                ),
                #"carousel: "Custom" (icon custom) must be the last item, and only it"#
            ),
            (
                "carousel",
                snapshotText(
                    "carousel",
                    #"{"carousel":{"items":[{"id":3,"name":"Sun","icon":"sun"},{"id":3,"name":"Custom","icon":"custom"}],"selected":0,"made":6}}"#
                ),
                "carousel: items[1].id 3 is repeated or not below made (6)"
            ),
            (
                "carousel",
                snapshotText(
                    "carousel",
                    #"{"carousel":{"items":[{"id":0,"name":"Custom","icon":"custom"}],"selected":1,"made":6}}"#),
                "carousel: selected must be an integer in 0…0"
            ),
            (
                "carousel",
                snapshotText(
                    "carousel",
                    #"{"carousel":{"items":[{"id":0,"name":"Custom","icon":"kiwi"}],"selected":0,"made":6}}"#),
                "carousel: items[0]: icon must be one of sun, moon, star, heart, leaf, custom, added"
            ),
            (
                "roller", snapshotText("roller", #"{"roller":{"number":100000000,"queue":[],"columns":8}}"#),
                "roller: number must be an integer in 0…99999999"
            ),
            (
                "roller", snapshotText("roller", #"{"roller":{"number":1,"queue":[2,3,4],"columns":1}}"#),
                "roller: queue must be a list of at most 2 numbers"
            ),
            (
                "roller", snapshotText("roller", #"{"roller":{"number":1,"queue":[-1],"columns":1}}"#),
                "roller: queue[0] must be an integer in 0…99999999"
            ),
            (
                "roller", snapshotText("roller", #"{"roller":{"number":1,"queue":[],"columns":9}}"#),
                "roller: columns must be an integer in 1…8"
            ),
            ("roller", snapshotText("roller", #"{"rollerPlus1":{}}"#), "rollerPlus1: this widget keeps no snapshot"),
            (
                "carousel",
                snapshotText(
                    "carousel",
                    #"{"carousel":{"items":[{"id":0,"name":"e\#(String(repeating: "\u{301}", count: 64))","icon":"sun"},{"id":1,"name":"Custom","icon":"custom"}],"selected":0,"made":6}}"#
                ),
                "carousel: items[0]: name must be a string of 1–32 characters and at most 128 bytes in UTF-8"
            ),
        ]
        for c in cases {
            #expect(try refusal(c.scene, c.text) == c.reason, "\(c.text)")
        }
    }

    @Test("a stored snapshot over 32 KiB is refused before it is read, naming its size and the limit")
    func overTheByteLimit() throws {
        let valid = #"{"format":1,"scene":"ruler","widgets":{"ruler":{"value":80.3}}}"#
        let padded = valid + String(repeating: " ", count: 32 * 1024 - valid.utf8.count)
        #expect(try refusal("ruler", padded + " ") == "the snapshot is 32769 bytes; the limit is 32768")
        // At the limit it is read (JSON allows the trailing spaces).
        let scene = try #require(SceneCatalog.standard.make("ruler"))
        try scene.restore(SceneSnapshot(parsing: padded))
        #expect(try ruler(scene).value == 80.3)
    }

    @Test("the largest snapshot a scene writes (50 items, the longest names, the largest ids) is under 18 KiB")
    func largestSnapshot() throws {
        let scene = try MessageSizeTests.fullDemo()
        let text = scene.snapshot().text
        #expect(text.utf8.count <= 18 * 1024, "\(text.utf8.count) B")
        expectSameLook(scene, try restored(from: scene))
    }

    @Test("only a new scene is restored")
    func onlyANewScene() throws {
        let scene = try settled("ruler", [(action("ruler", "setValue", ["value": 80.3]), 1)])
        #expect(throws: SnapshotError("only a new scene can be restored")) {
            try scene.restore(scene.snapshot())
        }
    }
}
