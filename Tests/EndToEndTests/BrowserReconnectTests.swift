import Foundation
import LoopbackTools
import Testing

/// The page outlives its server: when the server goes away it says it is offline and retries
/// (full-jitter exponential backoff from 250 ms, at most 8 s: `Public/js/connection.js`), and when
/// a server comes back on the same port it is welcomed again and paints that server's frames.
@Suite(.serialized) struct BrowserReconnectTests {
    static let root = "document.documentElement.dataset"
    static let ruler = BrowserRulerTests.value

    /// Records, from before the page's scripts run, in `window.link`: `welcomes` (each `welcome`
    /// message's client id) and `states` (every value `<html>`'s `data-connection` takes, with the
    /// status text, as "state|text"). Listens only: the page's socket and handlers are untouched.
    static let recorder = """
        (() => {
          const link = window.link = { welcomes: [], states: [] };
          const NativeWebSocket = window.WebSocket;
          window.WebSocket = class extends NativeWebSocket {
            constructor(...args) {
              super(...args);
              this.addEventListener("message", (e) => {
                if (typeof e.data !== "string") return;
                try { const m = JSON.parse(e.data); if (m.type === "welcome") link.welcomes.push(m.client); } catch {}
              });
            }
          };
          new MutationObserver(() => {
            const state = document.documentElement.dataset.connection;
            if (state === undefined) return;
            const text = document.getElementById("status")?.textContent ?? "";
            if (link.states.at(-1) !== state + "|" + text) link.states.push(state + "|" + text);
          }).observe(document, { subtree: true, attributes: true, childList: true, characterData: true });
        })();
        """

    @Test(
        "the server stops (1001): “Server restarting — reconnecting”; a new server on the same port: welcomed again, painting again"
    )
    func reconnectAfterRestart() throws {
        var server = try ServerProcess()
        let port = server.port
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": Self.recorder])
        try b.navigate(server.httpURL + "?room=restart")
        try b.waitFor(
            "\(Self.root).connection === 'open' && Number(\(Self.root).frames) > 0 && \(Self.ruler) === 72.5 "
                + "&& link.welcomes.length === 1", timeout: 10)

        // Move the ruler on this server (PageUp: +1.0), so the next server's state is told apart.
        _ = try b.evaluate("document.querySelector('[data-widget=ruler]').focus()")
        try b.key("PageUp")
        try b.waitFor("\(Self.ruler) === 73.5", timeout: 5)

        // Every close code the page records, in order: a failed reconnect attempt under load may
        // record 1006 over the first before it is read.
        _ = try b.evaluate(
            """
            (() => { window.closeCodes = []; const r = document.documentElement;
              new MutationObserver(() => closeCodes.push(r.dataset.closeCode))
                .observe(r, { attributes: true, attributeFilter: ['data-close-code'] }); return true; })()
            """)
        // SIGTERM: the server closes every connection with 1001 going away before it exits.
        server.stop()
        try b.waitFor("link.states.some(s => s.startsWith('offline|'))", timeout: 10)
        let offline = try b.evaluate("link.states.find(s => s.startsWith('offline|'))") as? String ?? ""
        #expect(
            offline.hasPrefix("offline|Server restarting — reconnecting in"),
            "status while the server is gone: \(offline)")
        #expect(try b.evaluate("closeCodes[0]") as? String == "1001")
        #expect(try b.evaluate("document.getElementById('status').hidden") as? Bool == false)
        // On a phone the longer status gives way rather than covering the switches.
        let gap = try b.evaluate(
            "document.getElementById('status').getBoundingClientRect().left"
                + " - document.getElementById('feedback').getBoundingClientRect().right")
        #expect((gap as? Double ?? -1) >= 0, "status pill overlaps the switches by \(gap ?? "?") px")
        try b.saveScreenshot("reconnect-offline")
        let framesBefore = try #require(b.evaluate("Number(\(Self.root).frames)") as? Double)

        // A new server on the same port: a fresh room, so the ruler is back at 72.5. The page's
        // retries are at most 8 s apart, and it has been offline for a few seconds at most.
        server = try ServerProcess(port: port)
        defer { server.stop() }
        try b.waitFor(
            "\(Self.root).connection === 'open' && link.welcomes.length === 2 "
                + "&& Number(\(Self.root).frames) > \(framesBefore) && \(Self.ruler) === 72.5", timeout: 15)
        // Open, then offline (with connection attempts in between), then open again.
        let states = try b.evaluate("link.states.map(s => s.split('|')[0])") as? [String] ?? []
        let firstOffline = states.firstIndex(of: "offline") ?? states.endIndex
        #expect(states.prefix(firstOffline).contains("open") && states.last == "open", "\(states)")
        #expect(states.filter { $0 == "open" }.count == 2, "open before and after the restart: \(states)")
        #expect(
            Set(states).isSubset(of: ["connecting", "open", "offline"]), "no other state on the way: \(states)")
        #expect(try b.evaluate("document.getElementById('status').textContent") as? String == "Connected")
        #expect(try b.evaluate("\(Self.root).room") as? String == "restart")

        // The canvas shows the new server's frame: the ruler's band and the readout's are not blank.
        let colours = try #require(
            b.evaluate(
                """
                (() => { const c = document.getElementById('canvas'); const g = c.getContext('2d');
                  const count = (y, h) => { const d = g.getImageData(0, y * 2, c.width, h * 2).data; const s = new Set();
                    for (let i = 0; i < d.length; i += 4) s.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]); return s.size; };
                  return [count(150, 128), count(48, 80)]; })()
                """) as? [Double])
        #expect(
            colours.count == 2 && colours.allSatisfy { $0 >= 3 }, "colours in the ruler and readout bands: \(colours)")
        try b.saveScreenshot("reconnect-reconnected")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("a full server (close 1013): “Server full — retrying”, and the page gets in once a place is free")
    func serverFull() throws {
        let server = try ServerProcess(arguments: ["--max-clients", "1"])
        var holder: WireClient? = try WireClient(server, room: "full")
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 1)
        try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": Self.recorder])
        try b.navigate(server.httpURL + "?room=full")
        try b.waitFor("link.states.some(s => s.startsWith('offline|'))", timeout: 10)
        let offline = try b.evaluate("link.states.find(s => s.startsWith('offline|'))") as? String ?? ""
        #expect(offline.hasPrefix("offline|Server full — retrying in"), "status when full: \(offline)")
        #expect(try b.evaluate("\(Self.root).closeCode") as? String == "1013")
        // The place frees: the page's retry gets in.
        withExtendedLifetime(holder) {}
        holder = nil
        try b.waitFor("\(Self.root).connection === 'open' && link.welcomes.length === 1", timeout: 15)
    }

    @Test("the server is killed (no close frame, 1006): “Offline — retrying”")
    func offlineWhenKilled() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 1)
        try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": Self.recorder])
        try b.navigate(server.httpURL + "?room=killed")
        try b.waitFor("\(Self.root).connection === 'open' && link.welcomes.length === 1", timeout: 10)
        server.send(signal: SIGKILL)
        try b.waitFor("link.states.some(s => s.startsWith('offline|'))", timeout: 10)
        let offline = try b.evaluate("link.states.find(s => s.startsWith('offline|'))") as? String ?? ""
        #expect(offline.hasPrefix("offline|Offline — retrying in"), "status after a crash: \(offline)")
        #expect(try b.evaluate("\(Self.root).closeCode") as? String == "1006")
    }
}
