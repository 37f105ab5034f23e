import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// A page that comes back reconnects at once instead of waiting out its backoff (Public/js/connection.js):
/// its tab shown again, the network back online, restored from the back-forward cache (the
/// `<scroll-widget>` on an ordinary site: widget-server's own pages are `no-store`, which keeps
/// them out of that cache). The server welcomes it with the current frame, so it shows what
/// changed meanwhile. And a hidden page sends no hover (Public/js/input.js).
///
/// The backoff is made visible: the page's jitter is pinned at its longest, so after five failed
/// tries the next waits 8 s ("… in 8 s"), and each reconnection must come well before that: the
/// new socket is opened by the event itself, and welcomed before the 8 s are up.
@Suite(.serialized) struct BrowserLifecycleTests {
    static let root = "document.documentElement.dataset"
    static let ruler = BrowserRulerTests.value
    static let appStatus = "document.getElementById('status').textContent"
    static let widget = "document.getElementById('w')"
    static let widgetStatus = "\(widget).shadowRoot.querySelector('[part=status]').textContent"
    /// The longest wait of the backoff (ms, at the pinned jitter), and how long a reconnection may take.
    static let backoff = 8000 * 0.9999
    static let prompt = 3.0
    /// What a page restored from the back-forward cache gets (Chromium: in this order).
    static let restore: Set<String> = ["visibilitychange", "pageshow"]

    /// Runs before the page's scripts: `Math.random` at 0.9999, so each backoff wait is its
    /// longest (250 ms × 2^attempt, at most 8 s); and, in `window.lifecycle`: `sockets` (each
    /// WebSocket opened: `at`, `by` — the type of the event during which it was made, null from a
    /// timer — and `closedAt`, `code`), `welcomes` (`at`, `client`), `events` (`visibilitychange`,
    /// `pageshow`, `online`, `offline` with `at`, `visible`, `persisted`), `sent` (every message
    /// sent: `at`, `hidden`, `m`), `hiddenMoves` (pointer moves the page got while hidden) and
    /// `lastMoveAt`. Times are `performance.now()`. The page's own handlers are untouched.
    static let recorder = """
        (() => {
          Math.random = () => 0.9999;
          const seen = window.lifecycle = { sockets: [], welcomes: [], events: [], sent: [], hiddenMoves: 0, lastMoveAt: 0 };
          const NativeWebSocket = window.WebSocket;
          window.WebSocket = class extends NativeWebSocket {
            constructor(...args) {
              super(...args);
              const socket = { at: performance.now(), by: window.event?.type ?? null, closedAt: null, code: null };
              seen.sockets.push(socket);
              this.addEventListener("close", (e) => { socket.closedAt = performance.now(); socket.code = e.code; });
              this.addEventListener("message", (e) => {
                if (typeof e.data !== "string") return;
                try {
                  const m = JSON.parse(e.data);
                  if (m.type === "welcome") seen.welcomes.push({ at: performance.now(), client: m.client });
                } catch {}
              });
            }
            send(data) {
              try { seen.sent.push({ at: performance.now(), hidden: document.hidden, m: JSON.parse(data) }); } catch {}
              super.send(data);
            }
          };
          for (const type of ["visibilitychange", "pageshow", "online", "offline"]) {
            (type === "visibilitychange" ? document : window).addEventListener(type, (e) => seen.events.push({
              type, at: performance.now(), visible: document.visibilityState === "visible", persisted: e.persisted ?? null }));
          }
          addEventListener("pointermove", () => {
            seen.lastMoveAt = performance.now();
            if (document.hidden) seen.hiddenMoves += 1;
          }, true);
        })();
        """

    func open(_ url: String) throws -> Chromium {
        let b = try Chromium()
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": Self.recorder])
        try b.navigate(url)
        return b
    }

    /// The demo page in `room` of `server`, once connected, welcomed and painted.
    func openPage(_ server: ServerProcess, room: String) throws -> Chromium {
        let b = try open(server.httpURL + "?room=\(room)")
        try b.waitFor(
            "\(Self.root).connection === 'open' && Number(\(Self.root).frames) > 0 && lifecycle.welcomes.length === 1",
            timeout: 10)
        return b
    }

    /// The page, reconnected, paints again and shows the ruler where the other client moved it.
    func expectRulerMoved(_ b: Chromium, framesBefore frames: Double) throws {
        try b.waitFor(
            "\(Self.root).connection === 'open' && \(Self.ruler) === 80.3 && Number(\(Self.root).frames) > \(frames)",
            timeout: 5)
        #expect(try b.evaluate(Self.appStatus) as? String == "Connected")
    }

    /// Waits until the page, its server gone, has backed off to its longest wait: its status
    /// (`status`, a JS expression) says "… in 8 s". Returns when (page time, ms) that next try
    /// is due: the latest socket's close plus the wait.
    func waitForLongestBackoff(_ b: Chromium, status: String) throws -> Double {
        try b.waitFor("(\(status)).endsWith(' in 8 s')", timeout: 20)
        let closed = try #require(try b.evaluate("lifecycle.sockets.at(-1).closedAt") as? Double)
        return closed + Self.backoff
    }

    /// After the trigger: one welcome more within `prompt` s, on a socket opened by one of
    /// `events` (not by the backoff's timer), before the backoff's next try was `due`.
    func expectPromptReconnect(_ b: Chromium, by events: Set<String>, due: Double, welcomes: Int) throws {
        try b.waitFor("lifecycle.welcomes.length === \(welcomes + 1)", timeout: Self.prompt)
        let socket = try #require(try b.evaluate("lifecycle.sockets.at(-1)") as? [String: Any])
        let by = try #require(socket["by"] as? String, "the last socket was opened by a timer")
        #expect(events.contains(by), "the last socket was opened during \(by)")
        let welcomed = try #require(try b.evaluate("lifecycle.welcomes.at(-1).at") as? Double)
        let fired = try #require(try b.evaluate("lifecycle.events.findLast(e => e.type === '\(by)').at") as? Double)
        #expect(welcomed < due, "welcomed at \(welcomed) ms, the backoff's try was due at \(due) ms")
        #expect(welcomed - fired < Self.prompt * 1000, "welcomed \(welcomed - fired) ms after \(by)")
    }

    /// A second server on `port` whose room `room` has the ruler at 80.3 (set by another client):
    /// what a page welcomed there must show.
    func serverWithRulerMoved(port: Int, room: String, scene: String? = nil, arguments: [String] = []) throws -> (
        ServerProcess, WireClient
    ) {
        let server = try ServerProcess(port: port, arguments: arguments)
        let other = try WireClient(server, room: room, scene: scene)
        try other.send(.action(.init(widget: "ruler", action: "setValue", args: ["value": 80.3], t: 0)))
        #expect(try other.finalValue() == 80.3)
        return (server, other)
    }

    @Test("a hidden tab whose server came back reconnects when shown again, not when its 8 s backoff ends")
    func reconnectWhenShown() throws {
        var server = try ServerProcess()
        let port = server.port
        let b = try openPage(server, room: "shown")
        defer { b.close() }
        try b.hidePage()
        try b.waitFor("document.hidden && lifecycle.events.some(e => e.type === 'visibilitychange')", timeout: 5)

        server.stop()
        let due = try waitForLongestBackoff(b, status: Self.appStatus)
        let (next, other) = try serverWithRulerMoved(port: port, room: "shown")
        server = next
        defer { withExtendedLifetime(other) { server.stop() } }
        let frames = try #require(try b.evaluate("Number(\(Self.root).frames)") as? Double)
        #expect(try b.evaluate("lifecycle.welcomes.length") as? Double == 1, "reconnected before it was shown")

        try b.showPage()
        try expectPromptReconnect(b, by: ["visibilitychange"], due: due, welcomes: 1)
        try expectRulerMoved(b, framesBefore: frames)
    }

    @Test("offline, the page's tries fail until its backoff is 8 s; back online it reconnects at once")
    func reconnectWhenOnline() throws {
        var server = try ServerProcess()
        let port = server.port
        let b = try openPage(server, room: "online")
        defer { b.close() }
        try b.emulateOffline(true)
        try b.waitFor("!navigator.onLine && lifecycle.events.some(e => e.type === 'offline')", timeout: 5)
        // The emulation leaves the open socket open: the server going away closes it.
        server.stop()
        try b.waitFor("lifecycle.sockets[0].code === 1001", timeout: 5)
        // A server is back at once, but offline every try fails (1006) and the waits grow.
        let (next, other) = try serverWithRulerMoved(port: port, room: "online")
        server = next
        defer { withExtendedLifetime(other) { server.stop() } }
        let due = try waitForLongestBackoff(b, status: Self.appStatus)
        #expect(try b.evaluate("lifecycle.sockets.slice(1).every(s => s.code === 1006)") as? Bool == true)
        #expect(try b.evaluate(Self.appStatus) as? String == "Offline — retrying in 8 s")
        let frames = try #require(try b.evaluate("Number(\(Self.root).frames)") as? Double)

        try b.emulateOffline(false)
        try expectPromptReconnect(b, by: ["online"], due: due, welcomes: 1)
        try expectRulerMoved(b, framesBefore: frames)
    }

    @Test(
        "<scroll-widget> on a page restored from the back-forward cache reconnects at once: its socket closed there, or waiting out a backoff"
    )
    func reconnectFromBackForwardCache() throws {
        var server = try ServerProcess(arguments: ["--allow-origin", "*"])
        let port = server.port
        let site = try PlainSite(pages: [
            "/host.html": """
            <!doctype html><html><head><meta charset="utf-8"><title>host</title>
            <script type="module" src="http://127.0.0.1:\(port)/js/embed.js"></script></head>
            <body><scroll-widget id="w" scene="ruler" room="cached" server="http://127.0.0.1:\(port)"></scroll-widget></body></html>
            """,
            "/away.html": "<!doctype html><html><head><meta charset=\"utf-8\"><title>away</title></head></html>",
        ])
        defer { site.stop() }
        let b = try open(site.origin + "/host.html")
        defer { b.close() }
        try b.waitFor(
            "customElements.get('scroll-widget') && \(Self.widget).connectionState === 'open' "
                + "&& \(Self.widget).value === '72.5' && lifecycle.welcomes.length === 1", timeout: 10)
        let restored = "lifecycle.events.filter(e => e.type === 'pageshow' && e.persisted).length"

        // Cached while connected: the element closes its socket as the page goes (the browser
        // would, and tell the page only once it is back) and opens a new one as it comes back.
        #expect(try b.visitAndComeBack(site.origin + "/away.html") == "BackForwardCacheRestore")
        try b.waitFor("\(restored) === 1", timeout: 5)
        try b.waitFor(
            "lifecycle.welcomes.length === 2 && \(Self.widget).connectionState === 'open'", timeout: Self.prompt)
        #expect(try b.evaluate("lifecycle.sockets.length") as? Double == 2)
        #expect(Self.restore.contains(try b.evaluate("lifecycle.sockets[1].by") as? String ?? "a timer"))

        // Cached while waiting 8 s to try again, its server back meanwhile with the ruler moved.
        server.stop()
        let due = try waitForLongestBackoff(b, status: Self.widgetStatus)
        let (next, other) = try serverWithRulerMoved(
            port: port, room: "cached", scene: "ruler", arguments: ["--allow-origin", "*"])
        server = next
        defer { withExtendedLifetime(other) { server.stop() } }
        let welcomes = try #require(try b.evaluate("lifecycle.welcomes.length") as? Double)
        let frames = try #require(try b.evaluate("\(Self.widget).framesPainted") as? Double)
        #expect(try b.visitAndComeBack(site.origin + "/away.html") == "BackForwardCacheRestore")
        try b.waitFor("\(restored) === 2", timeout: 5)
        try expectPromptReconnect(b, by: Self.restore, due: due, welcomes: Int(welcomes))
        try b.waitFor(
            "\(Self.widget).connectionState === 'open' && \(Self.widget).value === '80.3' "
                + "&& \(Self.widget).framesPainted > \(frames)", timeout: 5)
    }

    @Test("a hidden page sends no hover while the mouse moves over it, and does again once shown")
    func hiddenPageSendsNoHover() throws {
        let server = try ServerProcess()
        let b = try openPage(server, room: "hidden-hover")
        defer { b.close() }
        let hovers = "lifecycle.sent.filter(s => s.m.type === 'hover')"
        func moveAcross(from x: Double) throws {
            for i in 0..<5 {
                let p = try b.css(x + Double(i) * 10, 289)
                try b.mouse("mouseMoved", x: p.x, y: p.y)
            }
        }
        // Visible: the moves are sent as hover.
        try moveAcross(from: 60)
        try b.waitFor("\(hovers).length > 0 && \(hovers).at(-1).m.x === 100", timeout: 5)
        let before = try #require(try b.evaluate("\(hovers).length") as? Double)

        try b.hidePage()
        try b.waitFor("document.hidden", timeout: 5)
        // Over the canvas, then out of it (no `out` either). Chromium acknowledges input to a
        // hidden page only after 5 s, so two moves it is.
        let p = try b.css(200, 289)
        try b.mouse("mouseMoved", x: p.x, y: p.y)
        try b.mouse("mouseMoved", x: 1, y: 1)
        // The moves reached the page; anything they would send goes within the 33 ms gap.
        try b.waitFor("lifecycle.hiddenMoves >= 2 && performance.now() - lifecycle.lastMoveAt > 200", timeout: 10)
        #expect(try b.evaluate("\(hovers).length") as? Double == before)
        #expect(try b.evaluate("lifecycle.sent.filter(s => s.hidden).map(s => s.m.type)") as? [String] == [])

        try b.showPage()
        try b.waitFor("!document.hidden", timeout: 5)
        try moveAcross(from: 260)
        try b.waitFor("\(hovers).length > \(before) && \(hovers).at(-1).m.x === 300", timeout: 5)
    }
}
