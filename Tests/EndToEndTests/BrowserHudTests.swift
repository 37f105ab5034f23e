import Foundation
import LoopbackTools
import Testing

/// The heads-up display in the real page (README, "HUD" and "Latency simulator"): toggled with
/// `h` and its button, remembered across a reload; its figures on `<html>` (`data-hud-fps`,
/// `-rtt`, `-latency`, `-bps`, `-skipped`) present and plausible while the ruler is dragged;
/// `?latency=` delays what the page sends and receives, and is shown. No wall-clock performance
/// is asserted: only that the figures exist, are in range, and that simulated latency is not
/// less than simulated.
///
/// Screenshots are saved as test artefacts in `.build/test-artifacts/screenshots/` (the HUD shown, with simulated
/// latency, a bad `?latency=`); they are not part of any assertion.
@Suite(.serialized) struct BrowserHudTests {
    static let root = "document.documentElement.dataset"

    static func figure(_ name: String) -> String { "Number(\(root).\(name))" }

    /// Loads the page at phone size with the test observers (`Chromium.observePage` and the
    /// presence suite's recorder of sent messages); waits until it is connected and painted.
    func open(_ server: ServerProcess, _ query: String, into browser: Chromium? = nil) throws -> Chromium {
        let b = try browser ?? Chromium()
        if browser == nil {
            try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
            try b.observePage()
            try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": BrowserPresenceTests.recorder])
        }
        try b.navigate(server.httpURL + query)
        try b.waitFor(
            "\(Self.root).connection === 'open' && Number(\(Self.root).frames) > 0 && \(BrowserRulerTests.value) > 0",
            timeout: 10)
        return b
    }

    /// Clicks the centre of the element with DOM id `id`.
    func click(_ b: Chromium, id: String) throws {
        let p = try #require(
            b.evaluate(
                """
                (() => { const r = document.getElementById('\(id)').getBoundingClientRect();
                  return r.width > 0 ? [r.left + r.width / 2, r.top + r.height / 2] : null; })()
                """) as? [Double])
        try b.mouse("mousePressed", x: p[0], y: p[1])
        try b.mouse("mouseReleased", x: p[0], y: p[1])
    }

    /// Whether the HUD is shown: "shown" or "hidden" on `<html>`, the panel visible or not, the
    /// button pressed or not — all three agreeing, else a description of the disagreement.
    func hudState(_ b: Chromium) throws -> String {
        try b.evaluate(
            """
            (() => { const panel = document.getElementById('hud'); const button = document.getElementById('hud-button');
              const visible = !panel.hidden && getComputedStyle(panel).display !== 'none' && panel.getBoundingClientRect().width > 0;
              const pressed = button.getAttribute('aria-pressed') === 'true';
              const data = document.documentElement.dataset.hud;
              if (visible && pressed && data === 'shown') return 'shown';
              if (!visible && !pressed && data === 'hidden') return 'hidden';
              return `disagree: data-hud ${data}, visible ${visible}, pressed ${pressed}`; })()
            """) as? String ?? "nil"
    }

    /// Saves a screenshot as a test artefact (TestArtifacts).
    func screenshot(_ b: Chromium, _ name: String) throws {
        try b.saveScreenshot(name)
    }

    @Test("h and the HUD button toggle it; the choice survives a reload; h typed in a text field does not")
    func toggles() throws {
        let server = try ServerProcess()
        let b = try open(server, "?room=toggle")
        defer { b.close() }
        #expect(try hudState(b) == "hidden", "never on by default")
        #expect(try b.evaluate("\(Self.root).hudFps") == nil, "no figures while hidden")

        try b.press("h")
        try b.waitFor("\(Self.root).hud === 'shown'", timeout: 5)
        #expect(try hudState(b) == "shown")
        try b.press("h")
        try b.waitFor("\(Self.root).hud === 'hidden'", timeout: 5)
        #expect(try hudState(b) == "hidden")

        // A focused widget that does not take `h` leaves it to the page.
        _ = try b.evaluate("document.querySelector('[data-widget=ruler]').focus()")
        try b.press("h")
        try b.waitFor("\(Self.root).hud === 'shown'", timeout: 5)
        #expect(try hudState(b) == "shown")

        // The button; then a reload remembers it (shown), and the figures come.
        try click(b, id: "hud-button")
        try b.waitFor("\(Self.root).hud === 'hidden'", timeout: 5)
        try click(b, id: "hud-button")
        try b.waitFor("\(Self.root).hud === 'shown'", timeout: 5)
        _ = try open(server, "?room=toggle", into: b)
        #expect(try hudState(b) == "shown", "remembered across a reload")
        try b.waitFor("\(Self.root).hudRtt !== undefined && \(Self.root).hudFps !== undefined", timeout: 5)

        // `h` typed into a text field is a letter, not a shortcut.
        _ = try b.evaluate(
            """
            (() => { const field = document.createElement('input'); field.id = 'typing'; document.body.append(field);
              field.focus(); return true; })()
            """)
        try b.press("h")
        try b.waitFor("document.getElementById('typing').value === 'h'", timeout: 5)
        #expect(try hudState(b) == "shown")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("during a ruler drag the HUD's figures are present and plausible")
    func figures() throws {
        let server = try ServerProcess()
        let b = try open(server, "?room=figures")
        defer { b.close() }
        try b.press("h")
        try b.waitFor("\(Self.root).hud === 'shown'", timeout: 5)

        // A slow drag, then a fling: frames are painted while the ruler moves.
        try BrowserRulerTests().drag(b, from: 300, by: -100)
        try b.waitFor("\(Self.figure("hudFps")) > 0 && \(Self.root).hudLatency !== undefined", timeout: 5)
        let fps = try #require(b.evaluate(Self.figure("hudFps")) as? Double)
        #expect(fps > 0 && fps <= 240, "fps \(fps)")
        try b.waitFor("\(Self.root).hudRtt !== undefined", timeout: 5)
        let rtt = try #require(b.evaluate(Self.figure("hudRtt")) as? Double)
        #expect(rtt > 0 && rtt < 1000, "RTT \(rtt) ms")
        let latency = try #require(b.evaluate(Self.figure("hudLatency")) as? Double)
        #expect(latency > 0 && latency < 1000, "input-to-frame latency \(latency) ms")
        let bps = try #require(b.evaluate(Self.figure("hudBps")) as? Double)
        #expect(bps > 0, "bytes per second \(bps)")
        let skipped = try #require(b.evaluate(Self.figure("hudSkipped")) as? Double)
        #expect(skipped >= 0 && skipped == skipped.rounded(), "skipped \(skipped)")
        // The page pinged (about once a second) and every input it sent was an input the server applied.
        let pings = try #require(
            b.evaluate("presenceObserved.sent.filter(s => s.m.type === 'ping').length") as? Double)
        #expect(pings >= 1)
        let shown = try #require(b.evaluate("document.getElementById('hud').innerText") as? String)
        for label in ["Painted", "Round trip", "Input → frame", "Received", "Skipped", "Latency sim"] {
            #expect(shown.contains(label), "\(label) in \(shown)")
        }
        #expect(shown.contains("ms"), "\(shown)")
        try screenshot(b, "hud-shown")

        // Still: nothing is painted for a second, and the frame rate says so.
        try b.waitFor("\(Self.figure("hudFps")) === 0", timeout: 10)
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("?latency=100 delays sends and receives: RTT ≥ 200 ms, input-to-frame ≥ 200 ms, shown in the HUD")
    func latencySimulator() throws {
        let server = try ServerProcess()
        let b = try open(server, "?room=slow&latency=100")
        defer { b.close() }
        #expect(try b.evaluate("\(Self.root).hudLatencySim") as? String == "100")
        #expect(try b.evaluate("document.getElementById('notice').hidden") as? Bool == true)
        try b.press("h")
        try b.waitFor("\(Self.root).hudRtt !== undefined", timeout: 5)
        let rtt = try #require(b.evaluate(Self.figure("hudRtt")) as? Double)
        #expect(rtt >= 200 && rtt < 2000, "RTT \(rtt) ms with 100 ms each way")
        #expect(
            try b.evaluate("document.querySelector('#hud [data-figure=sim]').textContent") as? String
                == "+100 ms simulated")

        try BrowserRulerTests().drag(b, from: 300, by: -100)
        try b.waitFor("\(Self.root).hudLatency !== undefined", timeout: 5)
        let latency = try #require(b.evaluate(Self.figure("hudLatency")) as? Double)
        #expect(latency >= 200, "input-to-frame latency \(latency) ms with 100 ms each way")
        // The drag still moved the ruler by 1.0 kg: delayed, in order, nothing lost.
        try b.waitFor("Math.abs(\(BrowserRulerTests.value) - 73.5) < 0.05", timeout: 5)
        try screenshot(b, "hud-latency-100")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("a bad ?latency= is said on the page, and nothing is simulated")
    func badLatency() throws {
        let server = try ServerProcess()
        let b = try open(server, "?room=bad&latency=fast")
        defer { b.close() }
        let notice = try #require(
            b.evaluate(
                """
                (() => { const el = document.getElementById('notice');
                  return el.hidden || getComputedStyle(el).display === 'none' ? null : el.textContent; })()
                """) as? String)
        #expect(notice.contains("?latency=fast") && notice.contains("0 to 5000"), "\(notice)")
        #expect(try b.evaluate("\(Self.root).hudLatencySim") == nil)
        try screenshot(b, "hud-bad-latency")
        try click(b, id: "notice-close")
        try b.waitFor("document.getElementById('notice').hidden", timeout: 5)

        for bad in ["5001", "-5", "1e3"] {
            _ = try open(server, "?room=bad&latency=\(bad)", into: b)
            #expect(try b.evaluate("document.getElementById('notice').hidden") as? Bool == false, "\(bad)")
            #expect(try b.evaluate("\(Self.root).hudLatencySim") == nil, "\(bad)")
        }
    }
}
