import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// The carousel in the real page (`?scene=carousel`, 390 × 260 pt: the carousel at (0, 40, 390,
/// 150), five 78-pt cells, Star centred; its `itemName` label below), driven with real mouse and
/// key events (over CDP in Chromium; the taps also in Firefox, over WebDriver BiDi:
/// `BrowserFirefoxTests`). The page mirrors the listbox's options as `role=option` elements and
/// announces what the carousel did; the server events it receives are recorded by a test-side
/// observer (`Chromium.observePage`).
///
/// Screenshots (at rest, mid-delete, after a glide) are saved as test artefacts
/// (`TestArtifacts.screenshots`); they are not part of any assertion.
@Suite(.serialized) struct BrowserCarouselTests {
    static let listbox = "document.querySelector('[data-widget=carousel]')"
    /// The centre of the middle cell, and the carousel's vertical middle (scene points).
    static let centreX = 195.0
    static let cellY = 115.0
    static let cell = 78.0

    /// Loads the page at phone size with the observer installed, waits until it is connected,
    /// painted and shows the listbox's options, and notes every text the live region is given.
    func open(_ server: ServerProcess, room: String, _ engine: Engine = .chromium) throws -> any BrowserPage {
        try engine.openObserved(
            server.httpURL + "?scene=carousel&room=\(room)",
            ready: "\(Self.listbox)?.querySelectorAll('[role=option]').length > 0")
    }

    /// A tap: press and release 50 ms apart, without moving.
    func tap(_ b: any BrowserPage, x: Double, y: Double) throws {
        let p = try b.css(x, y)
        try b.perform(.tap(x: p.x, y: p.y))
    }

    /// A drag from scene point (`x`, `y`) by (`dx`, `dy`) in `steps` moves `interval` seconds
    /// apart, released 8 ms after the last move (a flick keeps its velocity).
    func drag(_ b: any BrowserPage, x: Double, y: Double, dx: Double, dy: Double, steps: Int, interval: Double) throws {
        let p = try b.css(x, y)
        let scale = try b.css(1, 0).x - b.css(0, 0).x
        try b.perform(
            .stroke(from: p.x, p.y, by: dx * scale, dy * scale, steps: steps, interval: interval, hold: 0.008))
    }

    /// The carousel's events the page received so far, as "type index name".
    func events(_ b: any BrowserPage) throws -> [String] {
        try b.evaluate(
            """
            observed.events.filter(e => e.widget === 'carousel').map(e => `${e.type} ${e.index} ${e.name}`)
            """) as? [String] ?? []
    }

    /// Every event the page received, any widget, as "widget type index name" (for failure messages).
    func allEvents(_ b: any BrowserPage) throws -> [String] {
        try b.evaluate(
            "observed.events.map(e => `${e.widget} ${e.type} ${e.index} ${e.name ?? e.value ?? ''}`)") as? [String]
            ?? []
    }

    /// Waits until the page has received `count` carousel events.
    func waitForEvents(_ b: any BrowserPage, _ count: Int, timeout: Double = 5) throws {
        try b.waitFor("observed.events.filter(e => e.widget === 'carousel').length >= \(count)", timeout: timeout)
    }

    /// What the semantics layer shows for the carousel.
    struct Listbox {
        var options: [String]
        var selected: [String]
        var ids: [String]
        /// aria-activedescendant, and the text of the element it names.
        var active: String?
        var activeText: String?
        var valueText: String?
        var itemName: String?
        /// Every option id is a valid, unique DOM id (a CSS `#id` finds exactly its element).
        var idsValid: Bool
        /// The selected option's element's centre, in scene points from the canvas's left edge.
        var selectedCentre: Double?
    }

    func listbox(_ b: any BrowserPage) throws -> Listbox {
        let d = try #require(
            b.evaluate(
                """
                (() => { const lb = \(Self.listbox); const opts = [...lb.querySelectorAll('[role=option]')];
                  const sel = opts.filter(o => o.getAttribute('aria-selected') === 'true');
                  const active = lb.getAttribute('aria-activedescendant');
                  const ids = opts.map(o => o.id);
                  const canvas = document.getElementById('canvas').getBoundingClientRect();
                  const r = sel[0]?.getBoundingClientRect();
                  return { options: opts.map(o => o.textContent), selected: sel.map(o => o.textContent), ids, active,
                    activeText: active ? document.getElementById(active)?.textContent ?? null : null,
                    valueText: lb.getAttribute('aria-valuetext'),
                    itemName: document.querySelector('[data-widget=itemName]')?.textContent ?? null,
                    idsValid: ids.every(id => /^[A-Za-z][A-Za-z0-9_-]*$/.test(id)
                      && document.querySelectorAll('#' + CSS.escape(id)).length === 1)
                      && new Set(ids).size === ids.length,
                    selectedCentre: r ? (r.left + r.width / 2 - canvas.left) / (canvas.width / 390) : null }; })()
                """) as? [String: Any])
        return Listbox(
            options: d["options"] as? [String] ?? [], selected: d["selected"] as? [String] ?? [],
            ids: d["ids"] as? [String] ?? [], active: d["active"] as? String, activeText: d["activeText"] as? String,
            valueText: d["valueText"] as? String, itemName: d["itemName"] as? String,
            idsValid: d["idsValid"] as? Bool ?? false, selectedCentre: (d["selectedCentre"] as? NSNumber)?.doubleValue)
    }

    /// Saves a screenshot named `name` as a test artefact.
    func screenshot(_ b: any BrowserPage, _ name: String) throws {
        try b.saveScreenshot(name)
    }

    @Test("tap Moon centres it; End then a tap on Custom adds Item 7; a swipe up deletes it")
    func tapAddDelete() throws { try tapAddDelete(.chromium) }

    func tapAddDelete(_ engine: Engine) throws {
        let server = try ServerProcess()
        let b = try open(server, room: "taps", engine)
        defer { b.close() }
        var box = try listbox(b)
        #expect(box.options == ["Sun", "Moon", "Star", "Heart", "Leaf", "Custom"])
        #expect(box.selected == ["Star"] && box.activeText == "Star" && box.valueText == "Star")
        #expect(box.itemName == "Star")
        #expect(box.idsValid, "option ids: \(box.ids)")
        #expect(abs((box.selectedCentre ?? 0) - Self.centreX) < 1, "the selected option is the centre cell")
        try screenshot(b, "carousel-rest")

        // Moon (index 1) is one cell left of centre: a tap there centres it (0.3 s), then it is selected.
        try tap(b, x: Self.centreX - Self.cell, y: Self.cellY)
        try waitForEvents(b, 1)
        #expect(try events(b) == ["selected 1 Moon"])
        try b.waitFor("\(Self.listbox).getAttribute('aria-valuetext') === 'Moon'", timeout: 5)
        box = try listbox(b)
        #expect(box.selected == ["Moon"] && box.activeText == "Moon" && box.itemName == "Moon")
        #expect(abs((box.selectedCentre ?? 0) - Self.centreX) < 1, "Moon's option moved to the centre cell")

        // Custom is off screen: End on the focused listbox centres it; a tap on it adds "Item 7".
        _ = try b.evaluate("\(Self.listbox).focus()")
        try b.press("End")
        try waitForEvents(b, 2)
        #expect(try events(b) == ["selected 1 Moon", "selected 5 Custom"])
        #expect(try b.evaluate("document.activeElement?.dataset.widget") as? String == "carousel")
        try b.waitFor("\(Self.listbox).getAttribute('aria-valuetext') === 'Custom'", timeout: 5)
        try tap(b, x: Self.centreX, y: Self.cellY)
        try waitForEvents(b, 4)
        #expect(
            try events(b) == ["selected 1 Moon", "selected 5 Custom", "added 5 Item 7", "selected 5 Item 7"])
        try b.waitFor("\(Self.listbox).getAttribute('aria-valuetext') === 'Item 7'", timeout: 5)
        box = try listbox(b)
        #expect(box.options == ["Sun", "Moon", "Star", "Heart", "Leaf", "Item 7", "Custom"])
        #expect(box.selected == ["Item 7"] && box.activeText == "Item 7" && box.itemName == "Item 7")
        #expect(box.idsValid, "option ids: \(box.ids)")
        let added = box.ids[5]

        // A swipe up on the centred item (60 pt in 6 moves over 60 ms) deletes it; Custom takes its place.
        try drag(b, x: Self.centreX, y: Self.cellY, dx: 0, dy: -60, steps: 6, interval: 0.01)
        try waitForEvents(b, 5)
        try screenshot(b, "carousel-mid-delete")
        // The fifth event is the delete (the selection that follows may have come already).
        let all = try allEvents(b)
        #expect(try events(b).dropFirst(4).first == "deleted 5 Item 7", "every event: \(all)")
        try waitForEvents(b, 6)
        #expect(try events(b).suffix(2) == ["deleted 5 Item 7", "selected 5 Custom"])
        try b.waitFor("\(Self.listbox).getAttribute('aria-valuetext') === 'Custom'", timeout: 5)
        box = try listbox(b)
        #expect(box.options == ["Sun", "Moon", "Star", "Heart", "Leaf", "Custom"])
        #expect(box.selected == ["Custom"] && box.activeText == "Custom" && box.itemName == "Custom")
        #expect(try b.evaluate("document.getElementById(\(BrowserPickerTests.js(added)))") == nil)

        #expect(
            try b.spoken() == ["Moon", "Custom", "Added Item 7", "Item 7", "Deleted Item 7", "Custom"],
            "the live region hears each selection, addition and deletion")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test(
        "a watcher's page plays a delete from the one frame that brings it: a new picture in each display frame of its 0.3 s while no frame comes, then no paint"
    )
    func deletePlayedByThePage() throws {
        let b = try Chromium()
        defer { b.close() }
        try deletePlayed(in: b, room: "tween-delete")
    }

    @Test(
        "in Firefox: a watcher's page paints a delete's tweens, a new picture in each display frame of its 0.3 s while no frame comes, then no paint"
    )
    func deletePlayedInFirefox() throws {
        let firefox = try Firefox()
        defer { firefox.close() }
        try deletePlayed(in: try firefox.newPage(), room: "tween-delete-firefox")
    }

    /// A watcher's page `b` in `room` sees another client delete Heart, right of the centred Star,
    /// and plays it on a held display stepped at 120 Hz (`holdDisplay`: the machine's load decides
    /// no frame): checks that one frame brings it and none comes while it plays, that each display
    /// frame of the delete's 0.3 s (WIDGETS.md §3) paints once, a new picture of the carousel's rows
    /// (±2), and that the page paints no more once it has ended.
    func deletePlayed(in b: any BrowserPage, room: String) throws {
        let server = try ServerProcess()
        // A hash of the carousel's rows (40…190 of the scene's 260 pt) at every paint, every frame kept.
        try b.logPaints(band: (40.0 / 260)...(190.0 / 260), keepFrames: true)
        try b.loadObserved(
            server.httpURL + "?scene=carousel&room=\(room)",
            ready: "\(Self.listbox)?.querySelectorAll('[role=option]').length > 0")
        let driver = try WireClient(server, room: room, scene: "carousel")
        _ = try driver.waitForBinary()
        // Quiet (the driver's arrival drawn): then another client deletes Heart, right of the
        // centred Star. The row stays (it is on Star), so no track moves it: every new picture
        // is the page playing the delete's tweens (Heart rising and fading, Leaf and Custom sliding in).
        try b.waitFor("performance.now() - (paintLog.binaries.at(-1)?.at ?? 0) > 300", timeout: 5)
        let held = try b.holdDisplay()
        let before = try #require(b.evaluate("paintLog.binaries.length") as? Int)
        try driver.send(.action(.init(widget: "carousel", action: "delete", args: ["index": 3], t: 1000)))
        try waitForEvents(b, 1)
        #expect(try events(b) == ["deleted 3 Heart"])
        // Longer than the delete, in wall time (the page's clock stands): any frame it sent has come.
        try b.waitFor(
            "paintLog.binaries.length > \(before) && Date.now() - paintLog.binaries.at(-1).wall > 400", timeout: 5)

        let carousel = UInt16(try #require(CarouselScene.make().widgets.firstIndex { $0.id == "carousel" }) + 1)
        let frames = try b.receivedFrames(from: before)
        let drawn = try #require(
            frames.first { $0.frame.layers.contains { $0.id == carousel && $0.ops != nil } }, "no frame drew the delete"
        )
        #expect(drawn.frame.layers.first { $0.id == carousel }?.track == nil, "the row does not move")
        // The delete's 0.3 s of room time after that frame: no other frame.
        let during = frames.filter { $0.frame.time > drawn.frame.time && $0.frame.time < drawn.frame.time + 0.3 }
        #expect(during.isEmpty, "\(during.count) frames while the delete played")

        // 45 display frames 8.3 ms apart (375 ms): the paints of each, as (display frame, picture).
        let tick = 25.0 / 3, steps = 45
        let last = try #require(b.evaluate("paintLog.paints.at(-1)?.band") as? NSNumber)
        for k in 1...steps { try b.stepDisplay(to: held + Double(k) * tick) }
        let logged = try #require(
            b.evaluate("paintLog.paints.filter(p => p.at >= \(held)).map(p => [p.at, p.band])") as? [[NSNumber]])
        let paints = logged.map { (frame: Int(($0[0].doubleValue - held) / tick + 0.5), band: $0[1]) }
        let painted = paints.map(\.frame)
        let n = painted.last ?? 0
        // The delete is 0.3 s: 36 frames of 8.3 ms (±1, as room time and the frame's fall).
        #expect((35...37).contains(n), "the page painted until display frame \(n) of \(steps)")
        // None at 0: the page had painted everything before the display was held.
        #expect(painted == Array(1...max(n, 1)), "one paint in each display frame until the end: \(painted)")
        let bands = [last] + paints.map(\.band)
        let pictures = zip(bands.dropFirst(), bands).filter { $0 != $1 }.count
        #expect(pictures >= paints.count - 2, "\(pictures) new pictures in \(paints.count) paints")
        print(
            "\(room): \(pictures) new pictures in \(paints.count) paints, one a display frame, over \(n) of \(steps) display frames (8.3 ms); \(during.count) frames"
        )
        try b.releaseDisplay()
        try screenshot(b, "carousel-after-\(room)")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("a flick of −80 pt glides past where the finger left it and comes to rest centred; then no more frames")
    func glide() throws {
        let server = try ServerProcess()
        let b = try open(server, room: "glide")
        defer { b.close() }
        let before = try b.evaluate("observed.frames") as? Int ?? 0

        // 80 pt in 8 moves 8 ms apart (1250 pt/s). Without momentum it would come to rest on
        // the nearest item, Heart (index 3: offset 156 + 80 = 236 ≈ 3 × 78); it glides further.
        try drag(b, x: Self.centreX, y: Self.cellY, dx: -80, dy: 0, steps: 8, interval: 0.008)
        try waitForEvents(b, 1)
        let selected = try #require(try events(b).first)
        #expect(["selected 4 Leaf", "selected 5 Custom"].contains(selected), "\(selected)")
        let moving = try b.evaluate("observed.frames") as? Int ?? 0
        #expect(moving - before > 10, "frames while it glided: \(moving - before)")

        // At rest the server sends nothing: no new frame for 0.5 s (within a 5 s deadline).
        try b.waitFor("performance.now() - observed.lastFrameAt > 500", timeout: 5)
        let resting = try b.evaluate("observed.frames") as? Int ?? 0
        let box = try listbox(b)
        #expect(box.selected.count == 1 && box.selected == [box.itemName ?? ""] && box.activeText == box.itemName)
        #expect(abs((box.selectedCentre ?? 0) - Self.centreX) < 1, "it rests centred on the selected item")
        try screenshot(b, "carousel-after-glide")
        #expect(try events(b) == [selected], "one selection, at rest")
        #expect(try b.evaluate("observed.frames") as? Int == resting)
    }

    @Test("a swipe up on Moon, left of the centred Star, deletes Moon; Star stays centred and selected")
    func deleteLeftOfSelection() throws {
        let server = try ServerProcess()
        let b = try open(server, room: "left")
        defer { b.close() }
        // Every change of the label, the listbox's valueText or its active option, as "label|value|active".
        _ = try b.evaluate(
            """
            (() => { const lb = \(Self.listbox); const label = document.querySelector('[data-widget=itemName]');
              const shown = () => label.textContent + '|' + lb.getAttribute('aria-valuetext') + '|'
                + document.getElementById(lb.getAttribute('aria-activedescendant'))?.textContent;
              window.shown = [shown()];
              new MutationObserver(() => { const s = shown(); if (s !== window.shown.at(-1)) window.shown.push(s); })
                .observe(document.getElementById('semantics'), { subtree: true, childList: true, characterData: true, attributes: true });
              return true; })()
            """)
        let moon = try listbox(b).ids[1]
        try drag(b, x: Self.centreX - Self.cell, y: Self.cellY, dx: 0, dy: -60, steps: 6, interval: 0.01)
        try waitForEvents(b, 1)
        try screenshot(b, "carousel-mid-delete-left")
        // The first event is the delete (the selection that follows may have come already).
        let all = try allEvents(b)
        #expect(try events(b).first == "deleted 1 Moon", "every event: \(all)")
        // Spec: the row keeps heading for Star, now index 1; the selection settles there.
        try waitForEvents(b, 2)
        #expect(try events(b) == ["deleted 1 Moon", "selected 1 Star"])
        try b.waitFor("performance.now() - observed.lastFrameAt > 500", timeout: 5)
        let box = try listbox(b)
        #expect(box.options == ["Sun", "Star", "Heart", "Leaf", "Custom"])
        #expect(box.selected == ["Star"] && box.activeText == "Star" && box.itemName == "Star")
        #expect(abs((box.selectedCentre ?? 0) - Self.centreX) < 1)
        #expect(try b.evaluate("document.getElementById(\(BrowserPickerTests.js(moon)))") == nil)
        #expect(try b.spoken() == ["Deleted Moon", "Star"])

        // carousel-spec.md: the label shows the selection's name and changes at settle time; the
        // selection is Star before and after, so nothing else is ever shown while Moon leaves.
        let shown = try b.evaluate("shown") as? [String] ?? []
        #expect(shown == ["Star|Star|Star"], "label|valueText|active option, each change: \(shown)")
    }
}
