import Foundation
import LoopbackTools
import Testing

/// Several people in one room, each in a real page in headless Chromium (two of them also with one
/// page in Firefox, over WebDriver BiDi: `BrowserFirefoxTests`): who is here,
/// each one's colour, the room bar (room name, Share, "N here", one chip each), remote pointers
/// drawn from the frames (a dot in the pointer's colour; never your own, skipped by the painter
/// through the display list's owner op 0x0F), hover sent by the page, and a bad `?room=`.
///
/// The demo scene at phone size (390 × 844 at 2×) fits the window exactly, so a CSS pixel is a
/// scene point. Its empty background band between the ruler (y 150–278) and the picker (y 300–370)
/// is where the hover dot is looked for.
///
/// Screenshots (the bar in light and dark, another's dot, another's hold, the copy-by-hand link,
/// the bad-room banner) are saved as test artefacts (`TestArtifacts.screenshots`); they are not
/// part of any assertion.
@Suite(.serialized) struct BrowserPresenceTests {
    static let root = "document.documentElement.dataset"
    static let ruler = "Number(document.querySelector('[data-widget=ruler]')?.getAttribute('aria-valuenow'))"
    /// The palette's first two slots: each joiner takes the lowest free slot, so the first to
    /// join gets the first (docs/PROTOCOL.md, "Sharing a room").
    static let first = "#1C7ED6"
    static let second = "#E8590C"
    /// An empty background spot, and one 30 pt to its right (scene points).
    static let spot = (x: 100.0, y: 289.0)
    static let beside = (x: 130.0, y: 289.0)

    /// Records, from before the page's own scripts run, in `window.presenceObserved`:
    /// - `sent`: every message the page sends, parsed, with `at` = `performance.now()`;
    /// - `sockets`: how many WebSockets the page opened;
    /// - `seq` / `paintedAt`: the newest frame's seq, and `data-frames` when it arrived (the page
    ///   has painted it once `data-frames` is past that);
    /// - `owners`: for each client id named by an owner op (0x0F) in a frame, the newest such seq.
    /// The page's socket and its handlers are untouched: one listener more, `send` passed through.
    static let recorder = """
        (() => {
          const seen = window.presenceObserved = { sent: [], sockets: 0, seq: 0, paintedAt: 0, owners: {} };
          const frames = () => Number(document.documentElement.dataset.frames || 0);
          const NativeWebSocket = window.WebSocket;
          window.WebSocket = class extends NativeWebSocket {
            constructor(...args) {
              super(...args);
              seen.sockets += 1;
              this.addEventListener("message", (e) => {
                if (typeof e.data === "string") return;
                const b = new Uint8Array(e.data);
                const seq = new DataView(e.data).getUint32(4, true);
                seen.seq = seq;
                seen.paintedAt = frames();
                // Owner ops name ids of A–Z a–z 0–9 (a byte search: a false hit only adds a key).
                for (let i = 0; i + 2 < b.length; i++) {
                  const n = b[i + 1];
                  if (b[i] !== 0x0F || n === 0 || n > 16 || i + 2 + n > b.length) continue;
                  const id = String.fromCharCode(...b.subarray(i + 2, i + 2 + n));
                  if (/^[A-Za-z0-9]+$/.test(id)) seen.owners[id] = seq;
                }
              });
            }
            send(data) {
              try { seen.sent.push({ at: performance.now(), m: JSON.parse(data) }); } catch {}
              super.send(data);
            }
          };
        })();
        """

    /// A fresh page on `query` at phone size, observed (`BrowserPage.observePage` and `recorder`);
    /// returns once it is connected, painted, shows the ruler and knows who is here.
    func open(_ server: ServerProcess, _ query: String, _ engine: Engine = .chromium) throws -> any BrowserPage {
        let b = try engine.openPage()
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try b.observePage()
        try b.addInitScript(Self.recorder)
        try b.navigate(server.httpURL + query)
        try b.waitFor(
            "\(Self.root).connection === 'open' && Number(\(Self.root).frames) > 0 && \(Self.ruler) > 0 "
                + "&& \(Self.root).people !== undefined", timeout: 10)
        return b
    }

    func string(_ b: any BrowserPage, _ js: String) throws -> String? { try b.evaluate(js) as? String }

    /// JS: the canvas's colour at scene point (`x`, `y`) as "#RRGGBB".
    static func pixel(_ x: Double, _ y: Double) -> String {
        """
        (() => { const c = document.getElementById('canvas'); const k = c.width / 390;
          const d = c.getContext('2d').getImageData(Math.floor(\(x) * k), Math.floor(\(y) * k), 1, 1).data;
          return '#' + [d[0], d[1], d[2]].map(v => v.toString(16).padStart(2, '0')).join('').toUpperCase(); })()
        """
    }

    /// "#RRGGBB" as [r, g, b].
    static func channels(_ hex: String) -> [Int] {
        stride(from: 1, to: 7, by: 2).map { i in
            let start = hex.index(hex.startIndex, offsetBy: i, limitedBy: hex.endIndex) ?? hex.endIndex
            return Int(hex[start...].prefix(2), radix: 16) ?? -1
        }
    }

    /// The people the bar shows, in order: "id" for others, "id you" for this page's own chip.
    func chips(_ b: any BrowserPage) throws -> [String] {
        try b.evaluate(
            """
            [...document.querySelectorAll('#people li.chip')].map(li =>
              li.dataset.client + (li.classList.contains('own') ? ' you' : ''))
            """) as? [String] ?? []
    }

    /// Saves a screenshot named `name` as a test artefact.
    func screenshot(_ b: any BrowserPage, _ name: String) throws {
        try b.saveScreenshot(name)
    }

    @Test("two pages in one room: who is here, a shared drag, another's hover dot (never your own), a leave")
    func twoPages() throws { try twoPages(.chromium, .chromium) }

    func twoPages(_ engineA: Engine, _ engineB: Engine) throws {
        let server = try ServerProcess()
        let a = try open(server, "?room=duo", engineA)
        defer { a.close() }
        let b = try open(server, "?room=duo", engineB)
        defer { b.close() }

        // Both see two people; each its own colour, in join order from the palette.
        try a.waitFor("\(Self.root).people === '2'", timeout: 5)
        try b.waitFor("\(Self.root).people === '2'", timeout: 5)
        let idA = try #require(try string(a, "\(Self.root).client"))
        let idB = try #require(try string(b, "\(Self.root).client"))
        let colorA = try #require(try string(a, "\(Self.root).color"))
        let colorB = try #require(try string(b, "\(Self.root).color"))
        #expect(idA != idB)
        #expect(colorA == Self.first && colorB == Self.second, "\(colorA) \(colorB)")
        #expect(try string(a, "\(Self.root).room") == "duo")
        #expect(try chips(a) == ["\(idA) you", idB])
        #expect(try chips(b) == ["\(idB) you", idA])
        #expect(try string(b, "document.getElementById('people-count').textContent") == "2 here")
        #expect(try string(b, "document.getElementById('room-name').textContent") == "duo")
        try screenshot(b, "presence-bar-light")

        // A drags the ruler with real mouse events; while A holds it, B sees it outlined in A's
        // colour (2 pt inside its frame: docs/PROTOCOL.md, "Sharing a room"); both come to the
        // same final value.
        let start = try #require(try b.evaluate(Self.ruler) as? Double)
        let y = try a.css(0, 214).y
        try a.perform(.stroke(from: 300, y, by: -100, 0, steps: 20, interval: 0.016, hold: nil))
        try b.waitFor("\(Self.pixel(1, 214)) === '\(colorA)'", timeout: 5)
        try screenshot(b, "presence-held-by-other")
        try a.perform(.release(x: 200, y: y, after: 0.1))
        let final = "observed.events.some(e => e.widget === 'ruler' && e.type === 'value' && e.final)"
        try a.waitFor(final, timeout: 5)
        try b.waitFor(final, timeout: 5)
        let finalValue =
            "observed.events.filter(e => e.widget === 'ruler' && e.type === 'value' && e.final).at(-1).value"
        let valueA = try #require(try a.evaluate(finalValue) as? Double)
        let valueB = try #require(try b.evaluate(finalValue) as? Double)
        #expect(abs(valueA - (start + 1.0)) < 0.05, "A's final value \(valueA), from \(start)")
        #expect(valueB == valueA)
        try b.waitFor("\(Self.ruler) === \(valueA)", timeout: 5)
        try b.waitFor("\(Self.pixel(1, 214)) !== '\(colorA)'", timeout: 5)

        // A hovers (no button) over empty background: B draws A's dot there (a disc in A's colour
        // ringed in white); A paints the same frames but skips its own dot.
        let p = try a.css(Self.spot.x, Self.spot.y)
        try a.perform(.hover(x: p.x, y: p.y))
        try b.waitFor("\(Self.pixel(Self.spot.x, Self.spot.y)) === '\(colorA)'", timeout: 5)
        let ring = try #require(try string(b, Self.pixel(Self.spot.x + 6, Self.spot.y)))
        #expect(Self.channels(ring).allSatisfy { $0 >= 0xF8 }, "the dot's white ring: \(ring)")
        let background = try #require(try string(b, Self.pixel(Self.beside.x, Self.beside.y)))
        try screenshot(b, "presence-dot-of-other")
        // The newest frame B has with A's dot; once A has painted that frame (or a later one with
        // its owner run), A's canvas is what it shows with its own dot skipped.
        let dotSeq = try #require(try b.evaluate("presenceObserved.owners['\(idA)']") as? Double)
        try a.waitFor(
            "presenceObserved.owners['\(idA)'] >= \(dotSeq) && Number(\(Self.root).frames) > presenceObserved.paintedAt",
            timeout: 5)
        #expect(try string(a, Self.pixel(Self.spot.x, Self.spot.y)) == background, "A must not see its own dot")
        try screenshot(a, "presence-own-dot-skipped")
        let hovers = try #require(
            try a.evaluate("presenceObserved.sent.filter(s => s.m.type === 'hover').map(s => s.m)") as? [[String: Any]])
        let last = try #require(hovers.last)
        #expect(last["x"] as? Double == Self.spot.x && last["y"] as? Double == Self.spot.y, "\(last)")
        #expect(last["t"] is Double && last["out"] == nil)

        // A's mouse leaves the canvas (onto the room bar): hover out, and B's dot goes away.
        let bar = try #require(
            try a.evaluate(
                """
                (() => { const r = document.getElementById('presence').getBoundingClientRect();
                  return [r.left + 4, r.top + r.height / 2]; })()
                """) as? [Double])
        try a.perform(.hover(x: bar[0], y: bar[1]))
        try a.waitFor("presenceObserved.sent.some(s => s.m.type === 'hover' && s.m.out === true)", timeout: 5)
        try b.waitFor("\(Self.pixel(Self.spot.x, Self.spot.y)) === '\(background)'", timeout: 5)

        // A leaves: B is alone.
        a.close()
        try b.waitFor("\(Self.root).people === '1'", timeout: 10)
        #expect(try chips(b) == ["\(idB) you"])
        #expect(try string(b, "document.getElementById('people-count').textContent") == "1 here")
    }

    @Test(
        "a crowded room: 17 others joined first; the page, not listed by name, shows 18 here, its own chip first in its colour, +11"
    )
    func crowdedRoom() throws {
        let server = try ServerProcess()
        let others = try (1...17).map { _ in try WireClient(server, room: "crowd") }
        defer { withExtendedLifetime(others) {} }
        let page = try open(server, "?room=crowd")
        defer { page.close() }
        try page.waitFor("\(Self.root).people === '18'", timeout: 5)
        let own = try #require(try string(page, "\(Self.root).client"))
        // The 18th to join takes slot 17: palette[17 % 8], the second colour.
        #expect(try string(page, "\(Self.root).color") == Self.second)
        #expect(try string(page, "document.getElementById('people-count').textContent") == "18 here")
        let shown = try chips(page)
        #expect(shown.count == 7 && shown.first == "\(own) you", "\(shown)")
        #expect(Array(shown.dropFirst()) == others.prefix(6).map(\.id), "\(shown)")
        #expect(try string(page, "document.querySelector('#people li.more')?.textContent") == "+11")
    }

    @Test("hover is sent at most 30 times a second, the newest position last; never while a button is down")
    func hoverRate() throws {
        let server = try ServerProcess()
        let a = try open(server, "?room=rate")
        defer { a.close() }
        // 40 moves as fast as they can be sent, then still: each hover ≥ 33 ms after the one before,
        // and the last one sent (after the gap) is where the mouse stopped.
        var moves = Gesture()
        for i in 0..<40 {
            let p = try a.css(60 + Double(i) * 4, 400)
            moves = moves.then(.move, x: p.x, y: p.y, at: 0)
        }
        try a.perform(moves)
        let hovers = "presenceObserved.sent.filter(s => s.m.type === 'hover')"
        try a.waitFor("\(hovers).length > 0 && \(hovers).at(-1).m.x === \(60 + 39 * 4)", timeout: 5)
        let at = try #require(try a.evaluate("\(hovers).map(s => s.at)") as? [Double])
        let gaps = zip(at.dropFirst(), at).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 32.5 }, "gaps between hover messages (ms): \(gaps)")

        // A press-drag-release sends pointer messages only: no hover while the button is down.
        try a.perform(.stroke(from: 300, 214, by: -30, 0, steps: 10, interval: 0.016, hold: 0.14))
        try a.waitFor("presenceObserved.sent.some(s => s.m.type === 'pointer' && s.m.phase === 'up')", timeout: 5)
        let down = try #require(
            try a.evaluate("presenceObserved.sent.findIndex(s => s.m.type === 'pointer' && s.m.phase === 'down')")
                as? Double)
        let up = try #require(
            try a.evaluate("presenceObserved.sent.findIndex(s => s.m.type === 'pointer' && s.m.phase === 'up')")
                as? Double)
        #expect(
            try a.evaluate(
                "presenceObserved.sent.slice(\(Int(down)), \(Int(up))).filter(s => s.m.type === 'hover').length")
                as? Double == 0)
    }

    @Test("Share copies the invite link (with the scene) and says so; refused, it shows the link to copy by hand")
    func share() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try b.navigate(server.httpURL + "?room=invite&scene=ruler&theme=dark")
        try b.waitFor("\(Self.root).connection === 'open' && \(Self.root).people === '1'", timeout: 10)
        let link = "\(server.httpURL)?room=invite&scene=ruler"
        let button = try #require(
            try b.evaluate(
                """
                (() => { const el = document.getElementById('share-button');
                  const r = el.getBoundingClientRect();
                  return el.tagName === 'BUTTON' ? [r.left + r.width / 2, r.top + r.height / 2] : null; })()
                """) as? [Double])
        func click() throws {
            try b.mouse("mousePressed", x: button[0], y: button[1])
            try b.mouse("mouseReleased", x: button[0], y: button[1])
        }

        // Allowed: copied, and "Link copied" said (a polite status) for a moment.
        try b.callBrowser(
            "Browser.grantPermissions", ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]])
        try click()
        try b.waitFor("\(Self.root).share === 'copied'", timeout: 5)
        #expect(try string(b, "document.getElementById('share-note').textContent") == "Link copied")
        #expect(try string(b, "navigator.clipboard.readText()") == link)
        try screenshot(b, "presence-link-copied-dark")
        try b.waitFor("document.getElementById('share-note').textContent === ''", timeout: 5)

        // Refused: the link in a selected, focused text field, until Done.
        try b.callBrowser(
            "Browser.setPermission", ["permission": ["name": "clipboard-write"], "setting": "denied"])
        try click()
        try b.waitFor("\(Self.root).share === 'manual'", timeout: 5)
        let shown =
            try b.evaluate(
                """
                (() => { const f = document.getElementById('share-link');
                  return [document.getElementById('share-fallback').hidden, f.value, document.activeElement === f,
                    f.selectionStart === 0 && f.selectionEnd === f.value.length, f.readOnly]; })()
                """) as? [Any]
        #expect(shown?.count == 5)
        #expect(shown?[0] as? Bool == false && shown?[1] as? String == link, "\(shown ?? [])")
        #expect(shown?[2] as? Bool == true && shown?[3] as? Bool == true && shown?[4] as? Bool == true)
        try screenshot(b, "presence-link-by-hand-dark")
        try b.key("Escape")
        try b.waitFor(
            "document.getElementById('share-fallback').hidden && document.activeElement?.id === 'share-button'",
            timeout: 5)
    }

    @Test("the room bar is accessible, inside the window and over no widget, in light and dark")
    func barLayout() throws {
        let server = try ServerProcess()
        for theme in ["light", "dark"] {
            let b = try open(server, "?room=layout-\(theme)&theme=\(theme)")
            defer { b.close() }
            let overlaps = try b.evaluate(
                """
                (() => { const f = document.getElementById('presence').getBoundingClientRect();
                  if (f.width === 0 || f.height === 0 || f.left < 0 || f.top < 0 || f.right > innerWidth
                    || f.bottom > innerHeight) return ['outside'];
                  return [...document.querySelectorAll('[data-widget]')].filter(el => { const r = el.getBoundingClientRect();
                    return r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom; })
                    .map(el => el.dataset.widget); })()
                """)
            #expect(overlaps as? [String] == [], "\(theme): \(overlaps ?? "nil")")
            let a11y =
                try b.evaluate(
                    """
                    (() => { const bar = document.getElementById('presence'); const people = document.getElementById('people');
                      const live = (el) => el.closest('[aria-live], [role=status], [role=alert]');
                      return [bar.getAttribute('aria-label'), people.getAttribute('aria-label'),
                        document.getElementById('share-button').tagName, String(live(document.getElementById('people-count'))),
                        String(live(people)), people.querySelector('.own')?.textContent,
                        people.querySelector('.own')?.title]; })()
                    """) as? [String]
            let id = try string(b, "\(Self.root).client") ?? "?"
            #expect(
                a11y == ["Room", "People in the room", "BUTTON", "null", "null", "you", "You (\(id))"], "\(a11y ?? [])")
            try screenshot(b, "presence-bar-phone-\(theme)")
        }
    }

    @Test("a ?room= the server would refuse is shown in a banner, as text, and the page never connects")
    func badRoom() throws {
        let server = try ServerProcess()
        for (query, name) in [("bad%20name", "bad name"), ("%3Cb%3Ex%3C%2Fb%3E", "<b>x</b>"), ("", "")] {
            let b = try Chromium()
            defer { b.close() }
            try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
            try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": Self.recorder])
            try b.navigate(server.httpURL + "?room=\(query)")
            // The page decides before it would connect (app.js runs once, at load).
            try b.waitFor("\(Self.root).connection === 'invalid'", timeout: 10)
            let banner =
                try b.evaluate(
                    """
                    (() => { const el = document.getElementById('banner');
                      return [el.hidden, getComputedStyle(el).display, el.textContent, el.children.length]; })()
                    """) as? [Any]
            #expect(banner?[0] as? Bool == false && banner?[1] as? String != "none")
            #expect(
                banner?[2] as? String
                    == "Room name \"\(name)\" is not allowed: use 1–64 characters of A–Z, a–z, 0–9, _ or -.")
            #expect(banner?[3] as? Double == 0, "the name is text, not markup")
            #expect(try b.evaluate("presenceObserved.sockets") as? Double == 0)
            #expect(try b.evaluate("document.getElementById('presence').hidden") as? Bool == true)
            if query == "bad%20name" { try screenshot(b, "presence-bad-room") }
        }
    }

    @Test("the painter skips the ops of an owner run naming the viewer, up to the next owner op or n = 0")
    func ownerRuns() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL + "?room=painter")
        // One layer: rect 1, [owner c1] save + rect 2 + restore, [owner c12] rect 3, [owner ""] rect 4,
        // [owner c1] rect 5 to the layer's end. Painted for c1, for c12 and for no viewer.
        let calls =
            try b.evaluate(
                """
                (async () => {
                  const m = await import('/js/painter.js');
                  const ops = [];
                  const f32 = (v) => [...new Uint8Array(new Float32Array([v]).buffer)];
                  const rect = (n) => ops.push(0x07, ...f32(n), ...f32(0), ...f32(1), ...f32(1));
                  const owner = (id) => ops.push(0x0F, id.length, ...new TextEncoder().encode(id));
                  rect(1); owner('c1'); ops.push(0x01); rect(2); ops.push(0x02); owner('c12'); rect(3); owner('');
                  rect(4); owner('c1'); rect(5);
                  // Header, then layer 5 of kind 0 at offset (0, 0).
                  const head = [0x46, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 5, 0, 0, ...f32(0), ...f32(0)];
                  const len = [ops.length & 255, ops.length >> 8, 0, 0];
                  const bytes = Uint8Array.from([...head, ...len, ...ops]);
                  const store = new m.LayerStore();
                  if (!store.apply(bytes.buffer)) return ['frame rejected'];
                  const run = (viewer) => {
                    const log = [];
                    const ctx = new Proxy({ canvas: { width: 1, height: 1 } }, {
                      get: (t, k) => k === 'canvas' ? t.canvas
                        : (...a) => { if (k !== 'setTransform' && k !== 'clearRect') log.push(`${String(k)}(${a[0] ?? ''})`); },
                      set: () => true,
                    });
                    m.paint(ctx, store, 1, 1, viewer);
                    return log.join(' ');
                  };
                  return [run('c1'), run('c12'), run(null)];
                })()
                """) as? [String]
        #expect(
            calls == [
                "save() fillRect(1) fillRect(3) fillRect(4) restore()",
                "save() fillRect(1) save() fillRect(2) restore() fillRect(4) fillRect(5) restore()",
                "save() fillRect(1) save() fillRect(2) restore() fillRect(3) fillRect(4) fillRect(5) restore()",
            ], "\(calls ?? [])")
    }
}
