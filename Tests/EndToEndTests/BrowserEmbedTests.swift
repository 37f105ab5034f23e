import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// `<scroll-widget>` (Public/js/embed.js, docs/EMBEDDING.md) in the example page `embed.html`, in
/// a headless browser with real mouse and key events (over CDP in Chromium; the form also in
/// Firefox, over WebDriver BiDi: `BrowserFirefoxTests`): it draws, reports the ruler's value
/// with `input` and `change` events, submits it with its form, resets, follows the keyboard, and two
/// elements on one page stay apart.
///
/// Screenshots are saved as test artefacts in `.build/test-artifacts/screenshots/` (the example at rest, after a
/// drag, and with a picker added).
@Suite(.serialized) struct BrowserEmbedTests {
    static let weight = "document.getElementById('weight')"

    /// Loads `path` at phone size and waits until every `<scroll-widget>` on it is connected, has
    /// painted and knows its value; `window.log` then records every `input` and `change` event of
    /// any of them (seen on the document: they bubble) as [type, id, target.value, detail].
    func open(_ server: ServerProcess, _ engine: Engine = .chromium, path: String = "embed.html") throws
        -> any BrowserPage
    {
        let browser = try engine.openPage()
        try browser.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try browser.navigate(server.httpURL + path)
        try waitUntilReady(browser)
        _ = try browser.evaluate(
            """
            (() => { window.log = [];
              for (const type of ['input', 'change'])
                document.addEventListener(type, (e) => {
                  if (e.target.localName === 'scroll-widget')
                    log.push({ type, id: e.target.id, value: e.target.value, detail: e.detail });
                });
              return true; })()
            """)
        return browser
    }

    func waitUntilReady(_ b: any BrowserPage) throws {
        try b.waitFor(
            "customElements.get('scroll-widget') && [...document.querySelectorAll('scroll-widget')].every(el => "
                + "el.connectionState === 'open' && el.framesPainted > 0 && el.value !== '')", timeout: 10)
    }

    /// The point of `id`'s element at scene point (`x`, `y`), in CSS px, and CSS px per scene point.
    func place(_ b: any BrowserPage, _ id: String, x: Double, y: Double) throws -> (x: Double, y: Double, scale: Double)
    {
        let r = try #require(
            b.evaluate(
                """
                (() => { const el = document.getElementById('\(id)'); const r = el.getBoundingClientRect();
                  const s = r.width / el.scene.width; return [r.x + \(x) * s, r.y + \(y) * s, s]; })()
                """) as? [Double])
        return (r[0], r[1], r[2])
    }

    /// A slow horizontal drag of `points` scene points from scene point (`x`, `y`) of element `id`:
    /// 20 moves 16 ms apart, then still for 100 ms before release (no fling).
    func drag(_ b: any BrowserPage, _ id: String, x: Double, y: Double, by points: Double) throws {
        let p = try place(b, id, x: x, y: y)
        try b.perform(.stroke(from: p.x, p.y, by: points * p.scale, 0, steps: 20, interval: 0.016, hold: 0.1))
    }

    /// The ruler (scene `ruler`, frame y 150…278) dragged from its middle.
    func dragRuler(_ b: any BrowserPage, _ id: String = "weight", by points: Double) throws {
        try drag(b, id, x: 300, y: 214, by: points)
    }

    /// The events logged so far: (type, element id, target.value, detail.value, detail.final).
    func logged(_ b: any BrowserPage) throws -> [(
        type: String, id: String, value: String, detail: Double?, final: Bool
    )] {
        let entries = try #require(b.evaluate("log") as? [[String: Any]])
        return entries.map { e in
            let detail = e["detail"] as? [String: Any]
            return (
                e["type"] as? String ?? "", e["id"] as? String ?? "", e["value"] as? String ?? "",
                (detail?["value"] as? NSNumber)?.doubleValue, detail?["final"] as? Bool ?? false
            )
        }
    }

    /// Saves a screenshot as a test artefact (TestArtifacts).
    func screenshot(_ b: any BrowserPage, _ name: String) throws {
        try b.saveScreenshot(name)
    }

    @Test("a room name the server would refuse is refused at once: a visible status and an error event")
    func badRoom() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        _ = try b.evaluate(
            """
            (() => { const el = document.createElement('scroll-widget');
              el.id = 'bad'; el.setAttribute('room', 'no spaces');
              window.errors = [];
              el.addEventListener('error', (e) => errors.push(e.detail.code + ': ' + e.detail.message));
              document.body.append(el); return true; })()
            """)
        try b.waitFor("errors.length > 0", timeout: 5)
        let allowed = "use 1–64 characters of A–Z, a–z, 0–9, _ or -"
        #expect(
            try b.evaluate("errors") as? [String] == ["bad_room: room name \"no spaces\" is not allowed: \(allowed)"])
        #expect(try b.evaluate("document.getElementById('bad').connectionState") as? String == "refused")
        let shown = try b.evaluate("document.getElementById('bad').shadowRoot.querySelector('.status').textContent")
        #expect((shown as? String)?.contains(allowed) == true)
    }

    @Test("the example loads: the ruler scene in the element's shadow root, painted, sized to the scene, 72.5 kg")
    func loadsAndDraws() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        #expect(try b.evaluate("\(Self.weight).value") as? String == "72.5")
        #expect(try b.evaluate("\(Self.weight).valueAsNumber") as? Double == 72.5)
        #expect(try b.evaluate("\(Self.weight).valueText") as? String == "72.5 kg")
        #expect(try b.evaluate("\(Self.weight).widgetId") as? String == "ruler")
        // The canvas fills the element's width at the scene's aspect ratio (390 × 300), at 2 device px.
        let size = try #require(
            b.evaluate(
                """
                (() => { const el = \(Self.weight); const c = el.shadowRoot.querySelector('canvas');
                  const r = el.getBoundingClientRect(), cr = c.getBoundingClientRect();
                  return [r.width, r.height, cr.width, cr.height, c.width, c.height]; })()
                """) as? [Double])
        #expect(size[0] > 300 && size[0] <= 390, "\(size)")
        #expect(abs(size[1] - size[0] * 300 / 390) < 1, "\(size)")
        #expect(abs(size[2] - size[0]) < 0.5 && abs(size[3] - size[1]) < 0.5, "\(size)")
        #expect(abs(size[4] - size[0] * 2) <= 1 && abs(size[5] - size[1] * 2) <= 1, "\(size)")
        // Painted: several colours in the ruler band and in the readout band (scene y 150…278, 48…128).
        let counts = try #require(
            b.evaluate(
                """
                (() => { const c = \(Self.weight).shadowRoot.querySelector('canvas'); const g = c.getContext('2d');
                  const k = c.width / 390;
                  const count = (y, h) => { const d = g.getImageData(0, Math.round(y * k), c.width, Math.round(h * k)).data;
                    const s = new Set(); for (let i = 0; i < d.length; i += 4) s.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]);
                    return s.size; };
                  return [count(150, 128), count(48, 80)]; })()
                """) as? [Any]
        ).compactMap { ($0 as? NSNumber)?.intValue }
        #expect(counts.count == 2 && counts.allSatisfy { $0 >= 3 }, "colours per band: \(counts)")
        // The semantics overlay is in the shadow root: the ruler is a slider, in reach of Tab.
        let slider =
            try b.evaluate(
                """
                (() => { const s = \(Self.weight).shadowRoot.querySelector('[data-widget=ruler]');
                  return [s.getAttribute('role'), s.getAttribute('aria-valuetext'), s.tabIndex].join('|'); })()
                """) as? String
        #expect(slider == "slider|72.5 kg|0")
        #expect(
            b.consoleMessages.filter { $0.hasPrefix("exception") || $0.hasPrefix("error") }.isEmpty,
            "\(b.consoleMessages)")
        try screenshot(b, "embed-rest")
    }

    @Test("dragging the ruler 100 pt left fires input events while it moves and one change at 73.5")
    func dragFiresInputAndChange() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        try dragRuler(b, by: -100)
        // WIDGETS.md §1: 10 pt a tick of 0.1 kg, so 100 pt is 1.0 kg: 72.5 → 73.5.
        try b.waitFor("log.some(e => e.type === 'change')", timeout: 5)
        let events = try logged(b)
        let inputs = events.filter { $0.type == "input" }
        let changes = events.filter { $0.type == "change" }
        #expect(inputs.count >= 5, "\(events)")
        #expect(changes.count == 1, "\(events)")
        #expect(changes.first?.value == "73.5" && changes.first?.detail == 73.5 && changes.first?.final == true)
        #expect(changes.first?.id == "weight")
        // Inputs carry the moving value (not final) in target.value and detail alike, ending at 73.5.
        #expect(inputs.allSatisfy { Double($0.value) == $0.detail }, "\(inputs)")
        #expect(inputs.dropLast().allSatisfy { !$0.final }, "\(inputs)")
        #expect(inputs.last?.value == "73.5")
        #expect(try b.evaluate("\(Self.weight).valueText") as? String == "73.5 kg")
        // The example shows it beside the ruler.
        #expect(try b.evaluate("document.getElementById('weight-now').textContent") as? String == "73.5 kg")
        try screenshot(b, "embed-after-drag")
    }

    @Test("a fling's moving values, sent ahead, fire as input events over the glide, in order, then one change")
    func flingInputsPlayOverTheGlide() throws { try flingInputsPlayOverTheGlide(.chromium) }

    func flingInputsPlayOverTheGlide(_ engine: Engine) throws {
        let server = try ServerProcess()
        var b: (any BrowserPage)!
        var stamps: [(Double, Double)] = [], swiped = 0.0
        var release = (travel: 0.0, velocity: 0.0, liftGap: 0.0)
        // Firefox plays the swipe in real time: on a loaded machine its lift can come more than
        // 40 ms after the last move, a placement with no glide. That is the premise failing, so
        // the swipe is made again on a fresh page, at most three times.
        for _ in 1...3 where release.velocity == 0 {
            b?.close()
            b = try open(server, engine)
            _ = try b.evaluate(
                """
                (() => { window.stamps = []; const el = \(Self.weight);
                  el.addEventListener('input', (e) => stamps.push([performance.now(), e.detail.value, e.detail.final]));
                  el.addEventListener('change', () => stamps.push([performance.now(), -1, true]));
                  return true; })()
                """)
            try BrowserRulerGestureTests.recordSent(b)
            // A swipe left (10 moves of 16 pt, 16 ms apart, lifted at once): ~1,000 pt/s.
            let p = try place(b, "weight", x: 300, y: 214)
            swiped = try #require(b.evaluate("performance.now()") as? Double)
            try b.perform(.stroke(from: p.x, p.y, by: -160 * p.scale, 0, steps: 10, interval: 0.016, hold: 0))
            try b.waitFor("stamps.some(s => s[1] === -1)", timeout: 10)
            stamps = try #require(b.evaluate("stamps") as? [[Any]]).map { s in
                ((s[0] as? NSNumber)?.doubleValue ?? 0, (s[1] as? NSNumber)?.doubleValue ?? 0)
            }
            release = try BrowserRulerGestureTests.released(b)
        }
        defer { b.close() }
        try #require(release.velocity != 0, "three times a placement: lifted \(release.liftGap) s after the last move")
        let inputs = stamps.dropLast()
        #expect(stamps.last?.1 == -1 && inputs.count >= 10, "\(stamps)")
        // In order of value (a swipe left raises it), each 0.1 kg or more above the one before.
        for (a, c) in zip(inputs, inputs.dropFirst()) { #expect(c.1 > a.1, "\(stamps)") }
        // Played over the glide, not at once when they came: the inputs after the swipe (~0.17 s)
        // span most of a second (the glide of ~1,000 pt/s decelerates for over a second).
        let afterSwipe = inputs.filter { $0.0 > swiped + 200 }
        let span = (afterSwipe.last?.0 ?? 0) - (afterSwipe.first?.0 ?? 0)
        #expect(afterSwipe.count >= 5 && span >= 400, "span \(span) ms: \(stamps)")
    }

    @Test("submitting the form sends the ruler's value under its name; reset and disabled behave as documented")
    func formSubmitsTheValue() throws { try formSubmitsTheValue(.chromium) }

    func formSubmitsTheValue(_ engine: Engine) throws {
        let server = try ServerProcess()
        let b = try open(server, engine)
        defer { b.close() }
        let formData = "JSON.stringify([...new FormData(document.getElementById('details'))])"
        #expect(try b.evaluate(formData) as? String == #"[["person",""],["weight","72.5"]]"#)
        try dragRuler(b, by: -100)
        try b.waitFor("log.filter(e => e.type === 'change').map(e => e.value).join() === '73.5'", timeout: 5)
        #expect(try b.evaluate(formData) as? String == #"[["person",""],["weight","73.5"]]"#)

        // Reset: the ruler goes back to where it was when the page loaded (through setValue), and
        // says so with a change event.
        _ = try b.evaluate("document.getElementById('details').reset(); true")
        try b.waitFor(
            "\(Self.weight).value === '72.5' && log.filter(e => e.type === 'change').length === 2", timeout: 5)
        #expect(try b.evaluate(formData) as? String == #"[["person",""],["weight","72.5"]]"#)

        // Disabled: left out of the form data, and the mouse no longer moves it.
        _ = try b.evaluate("\(Self.weight).disabled = true")
        #expect(try b.evaluate(formData) as? String == #"[["person",""]]"#)
        #expect(try b.evaluate("\(Self.weight).matches(':disabled')") as? Bool == true)
        try dragRuler(b, by: -100)
        _ = try b.evaluate("\(Self.weight).disabled = false")

        // A real submit (type a name, click the button): a GET to embed.html with both fields.
        // Were it moved while disabled, this drag would end at 74.5.
        try dragRuler(b, by: -100)
        try b.waitFor("log.filter(e => e.type === 'change').map(e => e.value).join() === '73.5,72.5,73.5'", timeout: 5)
        _ = try b.evaluate("document.getElementById('person').focus(); true")
        try b.type("Ada")
        let button = try #require(
            b.evaluate(
                """
                (() => { const r = document.querySelector('button[type=submit]').getBoundingClientRect();
                  return [r.x + r.width / 2, r.y + r.height / 2]; })()
                """) as? [Double])
        try b.expectingLoad { try b.perform(.tap(x: button[0], y: button[1])) }
        #expect(try b.evaluate("location.search") as? String == "?person=Ada&weight=73.5")
        // The example lists what it was sent.
        try waitUntilReady(b)
        #expect(
            try b.evaluate("document.getElementById('submitted-fields').textContent") as? String
                == "personAdaweight73.5")
    }

    @Test("focused, the element takes the ruler's keys: → +0.1, PageUp +1.0; each settles with one change")
    func keyboard() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        _ = try b.evaluate("\(Self.weight).focus(); true")
        #expect(try b.evaluate("document.activeElement === \(Self.weight)") as? Bool == true)
        #expect(
            try b.evaluate("\(Self.weight).shadowRoot.activeElement?.dataset.widget") as? String == "ruler")
        try b.press("ArrowRight")
        try b.waitFor(
            "\(Self.weight).value === '72.6' && log.filter(e => e.type === 'change').length === 1", timeout: 5)
        try b.press("PageUp")
        try b.waitFor(
            "\(Self.weight).value === '73.6' && log.filter(e => e.type === 'change').length === 2", timeout: 5)
        let changes = try logged(b).filter { $0.type == "change" }.map(\.value)
        #expect(changes == ["72.6", "73.6"])
        // A click on the form's label focuses the ruler too.
        _ = try b.evaluate("document.activeElement.blur(); true")
        let label = try #require(
            b.evaluate(
                """
                (() => { const r = document.querySelector('label[for=weight]').getBoundingClientRect();
                  return [r.x + 10, r.y + r.height / 2]; })()
                """) as? [Double])
        try b.perform(.tap(x: label[0], y: label[1]))
        try b.waitFor("document.activeElement === \(Self.weight)", timeout: 5)
        // Setting `value` drives the ruler there through its setValue action.
        _ = try b.evaluate("\(Self.weight).value = 80; true")
        try b.waitFor("\(Self.weight).value === '80' && log.filter(e => e.type === 'change').length === 3", timeout: 5)
        #expect(try b.evaluate("\(Self.weight).valueText") as? String == "80.0 kg")
    }

    @Test("an element without a room attribute joins a private room: embed- and 32 hex digits, new for each element")
    func privateRoom() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        let rooms =
            try b.evaluate(
                """
                (() => {
                  const a = document.createElement('scroll-widget'), c = document.createElement('scroll-widget');
                  return [\(Self.weight).room, a.room, c.room];
                })()
                """) as? [Any] ?? []
        let names = rooms.compactMap { $0 as? String }
        #expect(names.count == 3)
        for name in names {
            #expect(name.range(of: "^embed-[0-9a-f]{32}$", options: .regularExpression) != nil, "\(name)")
        }
        #expect(Set(names).count == 3, "each element its own room")
    }

    @Test("a ruler and a picker on one page, in rooms of their own, move and report independently")
    func twoElements() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        _ = try b.evaluate(
            """
            (() => { const p = document.createElement('scroll-widget');
              Object.assign(p, { id: 'count' }); p.setAttribute('name', 'count'); p.setAttribute('scene', 'picker');
              p.setAttribute('room', 'embed-two-picker'); p.setAttribute('theme', 'dark');
              document.getElementById('weight').closest('p').after(p); return true; })()
            """)
        try waitUntilReady(b)
        let count = "document.getElementById('count')"
        #expect(try b.evaluate("\(count).value") as? String == "0")
        #expect(try b.evaluate("\(count).widgetId") as? String == "picker")
        #expect(try b.evaluate("\(count).room") as? String == "embed-two-picker")
        #expect(try b.evaluate("\(Self.weight).room !== \(count).room") as? Bool == true)

        // The picker (scene `picker`, frame y 60…130): 50 pt left is 5 ticks.
        try drag(b, "count", x: 195, y: 95, by: -50)
        try b.waitFor("\(count).value === '5' && log.some(e => e.id === 'count' && e.type === 'change')", timeout: 5)
        #expect(try b.evaluate("\(Self.weight).value") as? String == "72.5")
        #expect(try logged(b).allSatisfy { $0.id == "count" })

        // The ruler's keys move the ruler only.
        _ = try b.evaluate("\(Self.weight).focus(); true")
        try b.press("PageDown")
        try b.waitFor("\(Self.weight).value === '71.5'", timeout: 5)
        try b.waitFor("log.some(e => e.id === 'weight' && e.type === 'change')", timeout: 5)
        #expect(try b.evaluate("\(count).value") as? String == "5")
        let changes = try logged(b).filter { $0.type == "change" }.map { "\($0.id)=\($0.value)" }
        #expect(changes == ["count=5", "weight=71.5"])
        #expect(
            try b.evaluate("JSON.stringify([...new FormData(document.getElementById('details'))])") as? String
                == #"[["person",""],["weight","71.5"],["count","5"]]"#)
        try screenshot(b, "embed-two-elements")
    }

    @Test("the roller's and the carousel's values: the number shown and the selected item's name, both settable")
    func otherScenes() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        _ = try b.evaluate(
            """
            (() => { for (const [id, scene] of [['roller', 'roller'], ['carousel', 'carousel']]) {
                const el = document.createElement('scroll-widget');
                el.id = id; el.setAttribute('name', id); el.setAttribute('scene', scene);
                document.getElementById('details').append(el);
              } return true; })()
            """)
        try waitUntilReady(b)
        let roller = "document.getElementById('roller')"
        let carousel = "document.getElementById('carousel')"
        #expect(try b.evaluate("\(roller).widgetId") as? String == "roller")
        #expect(try b.evaluate("\(roller).value") as? String == "0")
        #expect(try b.evaluate("\(carousel).widgetId") as? String == "carousel")
        let first = try #require(
            b.evaluate("\(carousel).shadowRoot.querySelector('[data-option]').textContent") as? String)
        let selected = try #require(
            b.evaluate("\(carousel).shadowRoot.querySelector('[aria-selected=true]').textContent") as? String)
        #expect(try b.evaluate("\(carousel).value") as? String == selected)
        #expect(first != selected)

        // The roller's changeTo; the carousel's select, by index given as digits.
        _ = try b.evaluate("\(roller).value = 42; \(carousel).value = '0'; true")
        try b.waitFor(
            "\(roller).value === '42' && \(carousel).value === \(Self.js(first)) && "
                + "log.filter(e => e.type === 'change').length === 2", timeout: 10)
        let changes = try logged(b).filter { $0.type == "change" }.map { "\($0.id)=\($0.value)" }.sorted()
        #expect(changes == ["carousel=\(first)", "roller=42"])
        #expect(
            try b.evaluate("new FormData(document.getElementById('details')).get('carousel')") as? String == first)
    }

    /// `text` as a JavaScript string literal.
    static func js(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
