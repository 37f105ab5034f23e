import Foundation
import Testing

@testable import ScrollCore

/// Drives the carousel scene with a virtual frame clock.
struct CarouselRun {
    var driver: SceneDriver
    let y = CarouselScene.carouselFrame.midY

    init(fps: Double = 60) { driver = SceneDriver(CarouselScene.make(), fps: fps) }

    var scene: Scene { driver.scene }
    var events: [SceneEvent] { driver.events }
    var carousel: Carousel { scene.widget("carousel") as! Carousel }
    var w: Double { carousel.cell }

    mutating func apply(_ input: SceneInput, at time: Double) { driver.apply(input, at: time) }
    mutating func settle() { driver.settle() }

    mutating func pointer(_ phase: PointerPhase, _ x: Double, _ y: Double, at time: Double) {
        let p = PointerInput(
            phase: phase, key: PointerKey(client: "a", pointer: 1), position: Point(x: x, y: y), clientTime: time)
        apply(.pointer(p), at: time)
    }

    mutating func tap(x: Double, at time: Double) {
        pointer(.down, x, y, at: time)
        pointer(.up, x, y, at: time + 0.08)
    }

    /// Up by 60 pt in 6 steps of 10 ms.
    mutating func swipeUp(x: Double, at time: Double) {
        pointer(.down, x, y, at: time)
        for i in 1...6 { pointer(.move, x, y - 10 * Double(i), at: time + 0.01 * Double(i)) }
        pointer(.up, x, y - 60, at: time + 0.07)
    }

    /// A slow drag by dx held still before lifting (no momentum).
    mutating func drag(by dx: Double, at time: Double, from x0: Double = 195) {
        pointer(.down, x0, y, at: time)
        for i in 1...10 { pointer(.move, x0 + dx * Double(i) / 10, y, at: time + 0.02 * Double(i)) }
        pointer(.up, x0 + dx, y, at: time + 0.4)
    }

    mutating func action(_ name: String, _ args: [String: JSONValue] = [:], at time: Double) {
        apply(.action(ActionInput(widget: "carousel", name: name, args: args)), at: time)
    }

    var kinds: [SceneEvent.Kind] { events.map(\.kind) }
    func selected() -> [(t: Double, index: Int, name: String)] {
        events.compactMap { if case let .selected(i, n) = $0.kind { ($0.time, i, n) } else { nil } }
    }
}

@Suite struct CarouselTests {
    let w = 78.0

    @Test(
        "scale (seed 004): 1.2 centred, 0.9 a cell away, 0.6 two away and off screen; partly visible edge cells below 0.6",
        arguments: [
            (2.0, 2.0, 1.2), (1, 2, 0.9), (3, 2, 0.9), (0, 2, 0.6), (4, 2, 0.6), (5, 2, 0.6), (-1, 2, 0.6),
            (0, 2.5, 0.45), (5, 2.5, 0.45), (2, 2.5, 1.05), (3, 2.5, 1.05),
        ])
    func scale(slot: Double, centredAt: Double, expected: Double) {
        #expect(abs(Carousel.scale(slot: slot, offset: centredAt * w, cell: w) - expected) < 1e-12)
    }

    @Test("scale is symmetric about the centre at any offset")
    func symmetric() {
        for x in stride(from: 0.0, through: 5 * w, by: 7.3) {
            let centre = x / w
            for d in stride(from: 0.0, through: 1.9, by: 0.1) {
                let left = Carousel.scale(slot: centre - d, offset: x, cell: w)
                let right = Carousel.scale(slot: centre + d, offset: x, cell: w)
                #expect(abs(left - right) < 1e-9, "x \(x), d \(d)")
            }
        }
    }

    @Test("starts on Star (index 2) centred, five cells of 78 pt, names as the seed's row")
    func start() {
        let run = CarouselRun()
        #expect(run.carousel.names == ["Sun", "Moon", "Star", "Heart", "Leaf", "Custom"])
        #expect(run.carousel.contentOffset == 2 * w && run.carousel.selection == 2)
        #expect(run.scene.semantics.first { $0.id == "itemName" }?.valueText == "Star")
    }

    @Test("released anywhere without momentum it eases 0.3 s onto the nearest item; it never rests between")
    func snapTargets() {
        // Ten equal steps; the drag starts at the first sample past the 10 pt slop, so the
        // content moves |dx| less that sample's distance: −60 → 48 pt from 156 → 204 = 2.62·w → 3.
        let cases: [(Double, Int)] = [(-30, 2), (-60, 3), (50, 2), (70, 1), (-120, 3), (-160, 4), (170, 0)]
        for (dx, index) in cases {
            var run = CarouselRun()
            run.drag(by: dx, at: 0)
            run.settle()
            #expect(run.carousel.contentOffset == Double(index) * w, "dx \(dx)")
            #expect(run.carousel.selection == index, "dx \(dx)")
            // The drag ends at 0.4 s; the ease takes 0.3 s.
            if index != 2 { #expect(abs((run.selected().last?.t ?? 0) - 0.7) < 1e-9, "dx \(dx)") }
        }
    }

    @Test("a fling glides with the fast rate, then lands centred on an item")
    func fling() throws {
        var run = CarouselRun()
        run.pointer(.down, 300, run.y, at: 0)
        for i in 1...5 { run.pointer(.move, 300 - 12 * Double(i), run.y, at: 0.01 * Double(i)) }
        run.pointer(.up, 240, run.y, at: 0.05)
        run.settle()
        let x = run.carousel.contentOffset
        #expect(x == (x / w).rounded() * w)
        #expect(run.carousel.selection > 2)
        #expect(run.selected().count == 1)
    }

    @Test("dragged past the first item it stretches (rubber band), and released it springs back onto Sun")
    func rubberBand() throws {
        var run = CarouselRun()
        run.drag(by: 300, at: 0)  // 156 pt to the first item, then 120+ pt of pull
        run.pointer(.down, 195, run.y, at: 1)  // (after the spring: a fresh touch is not ignored)
        run.pointer(.up, 195, run.y, at: 1.05)
        run.settle()
        #expect(run.carousel.contentOffset == 0 && run.carousel.selectedName == "Sun")
        #expect(run.selected().map(\.name) == ["Sun"])
    }

    @Test("while pulled past the end the row shows less than the pull (the band), never more")
    func rubberBandStretch() {
        var run = CarouselRun()
        run.pointer(.down, 100, run.y, at: 0)
        for i in 1...10 { run.pointer(.move, 100 + 30 * Double(i), run.y, at: 0.02 * Double(i)) }
        // 300 pt of finger travel; the lock took the first 30, so 270 pt of pull against 156 pt of room.
        let x = run.carousel.contentOffset
        #expect(x < 0 && x > -(270 - 156))
    }

    @Test("tap an item: it eases to the centre and becomes the selection when the 0.3 s animation ends")
    func tapToCentre() throws {
        var run = CarouselRun()
        run.tap(x: 195 - w, at: 1)  // Moon
        run.settle()
        #expect(run.carousel.selection == 1 && run.carousel.contentOffset == w)
        let s = try #require(run.selected().first)
        #expect(s.index == 1 && s.name == "Moon" && abs(s.t - 1.38) < 1e-9)
        #expect(run.scene.semantics.first { $0.id == "itemName" }?.valueText == "Moon")
    }

    @Test("a touch while it animates to a target is ignored, as the seed's disabled interaction")
    func inputIgnoredWhileAnimating() {
        var run = CarouselRun()
        run.tap(x: 195 - w, at: 0)  // heading for Moon until 0.38
        run.tap(x: 195 + w, at: 0.2)  // ignored
        run.settle()
        #expect(run.carousel.selection == 1)
        #expect(run.selected().map(\.index) == [1])
    }

    @Test("tap Custom: a new item is inserted before it and centred")
    func addByTap() throws {
        var run = CarouselRun()
        run.apply(.key("End", widget: "carousel"), at: 0)
        run.settle()
        #expect(run.carousel.selection == 5)
        run.tap(x: 195, at: 1)
        run.settle()
        #expect(run.carousel.names == ["Sun", "Moon", "Star", "Heart", "Leaf", "Item 7", "Custom"])
        #expect(run.carousel.selection == 5 && run.carousel.contentOffset == 5 * w)
        #expect(run.kinds.contains(.added(index: 5, name: "Item 7")))
        let s = try #require(run.selected().last)
        #expect(s.name == "Item 7" && abs(s.t - 1.38) < 1e-9, "\(s)")
    }

    @Test("Enter or Space on the selected Custom adds an item, as a tap does; on another item nothing happens")
    func addByKey() throws {
        var run = CarouselRun()
        run.apply(.key("Enter", widget: "carousel"), at: 0)  // Star is selected: nothing
        run.settle()
        #expect(run.carousel.count == 6 && run.events.isEmpty)
        run.apply(.key("End", widget: "carousel"), at: 0.5)
        run.settle()
        run.apply(.key("Enter", widget: "carousel"), at: 1)
        run.settle()
        #expect(run.carousel.names == ["Sun", "Moon", "Star", "Heart", "Leaf", "Item 7", "Custom"])
        #expect(run.kinds.contains(.added(index: 5, name: "Item 7")))
        // Item 7 is centred and selected 0.3 s later; Space there (not Custom) adds nothing.
        let s = try #require(run.selected().last)
        #expect(s.name == "Item 7" && abs(s.t - 1.3) < 1e-9, "\(s)")
        run.apply(.key(" ", widget: "carousel"), at: 2)
        run.settle()
        #expect(run.carousel.count == 7)
        run.apply(.key("End", widget: "carousel"), at: 3)
        run.settle()
        run.apply(.key(" ", widget: "carousel"), at: 4)
        run.settle()
        #expect(run.carousel.names.suffix(3) == ["Item 7", "Item 8", "Custom"])
    }

    @Test("swipe up deletes: at the start, in the middle, the item before Custom; Custom stays and never goes")
    func deletes() {
        var run = CarouselRun()
        run.action("select", ["index": 0], at: 0)
        run.settle()
        run.swipeUp(x: 195, at: 1)  // Sun, at the start
        run.settle()
        #expect(run.carousel.names == ["Moon", "Star", "Heart", "Leaf", "Custom"])
        #expect(run.carousel.selection == 0 && run.carousel.selectedName == "Moon")
        run.action("select", ["index": 2], at: 2)
        run.settle()
        run.swipeUp(x: 195, at: 3)  // Heart, in the middle
        run.settle()
        #expect(run.carousel.names == ["Moon", "Star", "Leaf", "Custom"])
        #expect(run.carousel.selectedName == "Leaf")
        run.swipeUp(x: 195, at: 4)  // Leaf, the last before Custom: Custom slides in
        run.settle()
        #expect(run.carousel.names == ["Moon", "Star", "Custom"])
        #expect(run.carousel.selectedName == "Custom")
        run.swipeUp(x: 195, at: 5)  // Custom: nothing
        run.settle()
        #expect(run.carousel.names == ["Moon", "Star", "Custom"])
        #expect(
            run.kinds.filter { if case .deleted = $0 { true } else { false } } == [
                .deleted(index: 0, name: "Sun"), .deleted(index: 2, name: "Heart"), .deleted(index: 2, name: "Leaf"),
            ])
        #expect(throws: ActionError(#"delete on "carousel": "Custom" cannot be deleted"#)) {
            try run.scene.check(ActionInput(widget: "carousel", name: "delete", args: ["index": 2]))
        }
        #expect(throws: ActionError(#"delete on "carousel": args.index must be an integer in 0…2"#)) {
            try run.scene.check(ActionInput(widget: "carousel", name: "delete", args: ["index": 3]))
        }
    }

    @Test("deleting an item left of the centre keeps the selected item centred, and nothing jumps")
    func deleteLeftOfCentre() {
        var run = CarouselRun()
        run.apply(.leave(client: "x"), at: 1)
        let before = run.carousel.contentOffset
        run.action("delete", ["index": 0], at: 1)
        // Same time, same offset: the offset animates from where it was.
        #expect(run.carousel.contentOffset == before)
        // While it animates, the selection is still Star (now index 1), on the label and in the options.
        run.apply(.leave(client: "x"), at: 1.15)
        #expect(run.carousel.selectedName == "Star" && run.carousel.selection == 1)
        #expect(run.scene.semantics[0].options.filter(\.selected).map(\.label) == ["Star"])
        run.settle()
        #expect(run.carousel.names == ["Moon", "Star", "Heart", "Leaf", "Custom"])
        #expect(run.carousel.selectedName == "Star" && run.carousel.selection == 1)
        #expect(run.carousel.contentOffset == w)
        #expect(run.selected().last.map { ($0.index, $0.name) } ?? (0, "") == (1, "Star"))
    }

    @Test("a delete and an add during another animation: each lands right, nothing lost")
    func duringAnimation() {
        var run = CarouselRun()
        run.action("select", ["index": 4], at: 0)  // heading for Leaf until 0.3
        run.action("delete", ["index": 1], at: 0.1)  // Moon: Leaf is now index 3
        run.action("delete", ["index": 0], at: 0.2)  // Sun: Leaf is now index 2
        run.action("add", ["name": "Kite"], at: 0.25)
        run.settle()
        #expect(run.carousel.names == ["Star", "Heart", "Leaf", "Kite", "Custom"])
        #expect(run.carousel.selectedName == "Kite" && run.carousel.contentOffset == 3 * w)
        #expect(run.selected().map(\.name) == ["Kite"])
    }

    @Test("a wheel scrolls the row at once (no rubber band), then 0.15 s after the burst it eases onto an item")
    func wheel() throws {
        var run = CarouselRun()
        run.apply(.wheel(WheelInput(position: Point(x: 195, y: run.y), dx: 100, dy: 0)), at: 1)
        #expect(run.carousel.contentOffset == 2 * w + 100)
        run.apply(.wheel(WheelInput(position: Point(x: 195, y: run.y), dx: 0, dy: 1, unit: .pages)), at: 1.05)
        #expect(run.carousel.contentOffset == 5 * w)  // clamped to Custom's offset
        run.settle()
        let s = try #require(run.selected().last)
        // The settle starts 0.15 s after the last event; already on Custom, it rests at once.
        #expect(s.name == "Custom" && abs(s.t - 1.2) < 1e-9)
    }

    @Test("a swipe acts on the item the finger came down on, even when items slid under it since")
    func swipeHitsTheTouchedItem() {
        var run = CarouselRun()
        run.action("select", ["index": 0], at: 0)
        run.settle()
        // Sun centred, so Star is two cells right (x 311…389). Delete Sun: it rests there already,
        // so no ease blocks the touch, and Star slides left while the finger comes down on it.
        run.action("delete", ["index": 0], at: 1)
        run.pointer(.down, 350, run.y, at: 1.02)
        run.pointer(.move, 350, run.y - 20, at: 1.1)
        run.pointer(.move, 350, run.y - 55, at: 1.2)
        run.pointer(.up, 350, run.y - 55, at: 1.25)
        run.settle()
        #expect(run.carousel.names == ["Moon", "Heart", "Leaf", "Custom"])
    }

    @Test("two Deletes within the animation delete the selected item once; a key repeated does not restart the ease")
    func repeatedKeys() throws {
        var run = CarouselRun()
        run.apply(.key("Delete", widget: "carousel"), at: 0)
        run.apply(.key("Delete", widget: "carousel"), at: 0.1)
        run.settle()
        #expect(run.carousel.names == ["Sun", "Moon", "Heart", "Leaf", "Custom"])
        run.apply(.key("End", widget: "carousel"), at: 1)
        run.apply(.key("End", widget: "carousel"), at: 1.2)
        run.settle()
        let s = try #require(run.selected().last)
        #expect(s.name == "Custom" && abs(s.t - 1.3) < 1e-9)
    }

    @Test("an action under a finger does not leave the row heading anywhere once the finger glides it")
    func noStaleHeading() {
        var run = CarouselRun()
        run.pointer(.down, 300, run.y, at: 0)
        run.action("add", at: 0.05)  // under the finger: the row stays where the finger has it
        for i in 1...5 { run.pointer(.move, 300 + 30 * Double(i), run.y, at: 0.05 + 0.01 * Double(i)) }
        run.pointer(.up, 450, run.y, at: 0.1)  // a fling towards the start
        run.apply(.key("ArrowRight", widget: "carousel"), at: 0.2)  // from where the glide lands
        run.settle()
        #expect(run.carousel.selection == 1 && run.carousel.selectedName == "Moon")
    }

    @Test("keys: arrows step the selection, Home/End, Delete removes the selected item (not Custom)")
    func keys() {
        var run = CarouselRun()
        for (key, name) in [
            ("ArrowRight", "Heart"), ("ArrowDown", "Leaf"), ("ArrowLeft", "Heart"), ("ArrowUp", "Star"),
            ("Home", "Sun"), ("ArrowLeft", "Sun"), ("End", "Custom"), ("Delete", "Custom"), ("ArrowLeft", "Leaf"),
            ("Backspace", "Custom"),
        ] {
            run.apply(.key(key, widget: "carousel"), at: run.scene.time + 1)
            run.settle()
            #expect(run.carousel.selectedName == name, "\(key)")
        }
        #expect(run.carousel.names == ["Sun", "Moon", "Star", "Heart", "Custom"])
    }

    @Test("select and add refuse what they cannot do, naming the argument; add is bounded")
    func actionErrors() {
        let run = CarouselRun()
        #expect(throws: ActionError(#"select on "carousel": args.index must be an integer in 0…5"#)) {
            try run.scene.check(ActionInput(widget: "carousel", name: "select", args: ["index": 6]))
        }
        #expect(throws: ActionError(#"select on "carousel": args.index is required"#)) {
            try run.scene.check(ActionInput(widget: "carousel", name: "select"))
        }
        var full = CarouselRun()
        for i in 0..<(Carousel.maxItems - 6) { full.action("add", at: Double(i)) }
        #expect(full.carousel.count == Carousel.maxItems)
        #expect(throws: ActionError(#"add on "carousel": the carousel holds at most 50 items"#)) {
            try full.scene.check(ActionInput(widget: "carousel", name: "add"))
        }
    }

    @Test("an added name is 1–32 characters and at most 128 bytes: one character of 16,001 bytes is refused")
    func nameBytes() {
        let refusal = ActionError(
            #"add on "carousel": args.name must be a string of 1–32 characters and at most 128 bytes in UTF-8"#)
        func add(_ name: String) -> ActionInput {
            ActionInput(widget: "carousel", name: "add", args: ["name": .string(name)])
        }
        var run = CarouselRun()
        // A letter and 8,000 combining marks: one character (a grapheme cluster), 16,001 bytes.
        let heavy = "e" + String(repeating: "\u{301}", count: 8000)
        #expect(heavy.count == 1 && heavy.utf8.count == 16_001)
        #expect(throws: refusal) { try run.scene.check(add(heavy)) }
        let over = "abc" + String(repeating: "\u{301}", count: 63)
        #expect(over.count == 3 && over.utf8.count == 129)
        #expect(throws: refusal) { try run.scene.check(add(over)) }
        #expect(throws: refusal) { try run.scene.check(add(String(repeating: "a", count: 33))) }
        // Exactly at the byte bound: 32 characters of 4 bytes, and 2 characters of 128 bytes.
        let emoji = String(repeating: "😀", count: 32)
        let marked = "ab" + String(repeating: "\u{301}", count: 63)
        #expect(emoji.utf8.count == 128 && marked.utf8.count == 128 && marked.count == 2)
        run.action("add", ["name": .string(emoji)], at: 0)
        run.action("add", ["name": .string(marked)], at: 1)
        #expect(run.carousel.names.suffix(3) == [emoji, marked, "Custom"])
    }

    @Test("semantics: a listbox whose options are the items, the selected one marked, each at its cell")
    func semantics() throws {
        var run = CarouselRun()
        run.action("select", ["index": 3], at: 0)
        run.settle()
        let listbox = try #require(run.scene.semantics.first { $0.id == "carousel" })
        #expect(listbox.role == "listbox" && listbox.valueText == "Heart")
        #expect(listbox.options.map(\.label) == ["Sun", "Moon", "Star", "Heart", "Leaf", "Custom"])
        #expect(listbox.options.map(\.selected) == [false, false, false, true, false, false])
        // Heart centred: its cell spans 156…234 on screen.
        #expect(listbox.options[3].frame == Rect(x: 156, y: 40, width: 78, height: 150))
        #expect(Set(listbox.options.map(\.id)).count == 6)
    }

    @Test("the same events at the same times at 30, 60 and 240 fps")
    func frameRates() {
        func events(_ fps: Double) -> [SceneEvent] {
            var run = CarouselRun(fps: fps)
            run.tap(x: 195 - w, at: 0)
            run.swipeUp(x: 195, at: 1)
            run.action("add", at: 2)
            run.action("delete", ["index": 0], at: 2.1)
            run.pointer(.down, 300, run.y, at: 3)
            for i in 1...5 { run.pointer(.move, 300 - 15 * Double(i), run.y, at: 3 + 0.01 * Double(i)) }
            run.pointer(.up, 225, run.y, at: 3.05)
            run.settle()
            return run.events
        }
        let reference = events(60)
        #expect(reference.count >= 6)
        for fps in [30.0, 240.0] {
            let other = events(fps)
            #expect(other.count == reference.count, "\(fps)")
            #expect(zip(other, reference).allSatisfy { $0.kind == $1.kind && abs($0.time - $1.time) < 1e-9 }, "\(fps)")
        }
    }
}
