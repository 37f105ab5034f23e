import Foundation
import LoopbackTools
import Testing

/// Themes and reduced motion in the real page (README, "Themes and motion"), with the system's
/// preferences emulated over CDP (`Emulation.setEmulatedMedia`): light and dark follow
/// `prefers-color-scheme` live without a reload; the theme button overrides it and is remembered;
/// a dark page is dark before its first frame; `prefers-reduced-motion` changes what the server
/// draws at once (the roller shows the number it heads for, without rolling).
///
/// Screenshots are saved as test artefacts in `.build/test-artifacts/screenshots/` (light, dark, dark before
/// the first frame, the override); they are not part of any assertion.
@Suite(.serialized) struct BrowserThemeTests {
    static let root = "document.documentElement.dataset"
    /// The scene's background (Sources/ScrollCore/Display/Color.swift) and the page's.
    static let lightBackground = "#F2F2F7"
    static let darkBackground = "#000000"
    /// A background spot of the demo scene (scene points): between the ruler and the picker.
    static let spot = BrowserPresenceTests.spot
    static let background = BrowserPresenceTests.pixel(spot.x, spot.y)

    /// Emulates the system's media features (the rest as the browser's own).
    func emulate(_ b: Chromium, dark: Bool, reducedMotion: Bool = false) throws {
        try b.call(
            "Emulation.setEmulatedMedia",
            [
                "features": [
                    ["name": "prefers-color-scheme", "value": dark ? "dark" : "light"],
                    ["name": "prefers-reduced-motion", "value": reducedMotion ? "reduce" : "no-preference"],
                ]
            ])
    }

    /// A fresh browser at phone size with the system in `dark` (or light), observed.
    func browser(dark: Bool, reducedMotion: Bool = false) throws -> Chromium {
        let b = try Chromium()
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try emulate(b, dark: dark, reducedMotion: reducedMotion)
        try b.observePage()
        try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": BrowserPresenceTests.recorder])
        return b
    }

    /// Loads `query` and waits until the page is connected and has painted a frame.
    func load(_ b: Chromium, _ server: ServerProcess, _ query: String, ready: String = "true") throws {
        try b.navigate(server.httpURL + query)
        try b.waitFor(
            "\(Self.root).connection === 'open' && Number(\(Self.root).frames) > 0 && (\(ready))", timeout: 10)
    }

    func string(_ b: Chromium, _ js: String) throws -> String? { try b.evaluate(js) as? String }

    /// The page's own background (`<body>`'s computed colour) as "#RRGGBB".
    static let pageBackground = """
        (() => { const m = getComputedStyle(document.body ?? document.documentElement).backgroundColor.match(/\\d+/g);
          return '#' + m.slice(0, 3).map(v => Number(v).toString(16).padStart(2, '0')).join('').toUpperCase(); })()
        """

    /// The `preferences` messages the page sent, as JSON text, in order.
    func preferencesSent(_ b: Chromium) throws -> [String] {
        try b.evaluate(
            """
            presenceObserved.sent.filter(s => s.m.type === 'preferences')
              .map(s => JSON.stringify({ theme: s.m.theme, reducedMotion: s.m.reducedMotion }))
            """) as? [String] ?? []
    }

    /// Saves a screenshot as a test artefact (TestArtifacts).
    func screenshot(_ b: Chromium, _ name: String) throws {
        try b.saveScreenshot(name)
    }

    @Test("the system turning dark and back repaints the scene in its theme, without a reload")
    func followsTheSystemLive() throws {
        let server = try ServerProcess()
        let b = try browser(dark: false)
        defer { b.close() }
        try load(b, server, "?room=live")
        #expect(try string(b, Self.background) == Self.lightBackground)
        #expect(try string(b, Self.pageBackground) == Self.lightBackground)
        #expect(try string(b, "\(Self.root).theme") == "light")
        let hello = try #require(
            b.evaluate("presenceObserved.sent.find(s => s.m.type === 'hello').m") as? [String: Any])
        #expect(hello["theme"] as? String == "light" && hello["reducedMotion"] as? Bool == false, "\(hello)")
        _ = try b.evaluate("window.samePage = true")
        let sockets = try #require(b.evaluate("presenceObserved.sockets") as? Double)

        try emulate(b, dark: true)
        try b.waitFor("\(Self.background) === '\(Self.darkBackground)'", timeout: 5)
        #expect(try string(b, Self.pageBackground) == Self.darkBackground)
        #expect(try string(b, "\(Self.root).theme") == "dark")
        #expect(try preferencesSent(b) == [#"{"theme":"dark"}"#])
        try screenshot(b, "theme-dark-live")

        try emulate(b, dark: false)
        try b.waitFor("\(Self.background) === '\(Self.lightBackground)'", timeout: 5)
        #expect(try string(b, Self.pageBackground) == Self.lightBackground)
        #expect(try preferencesSent(b) == [#"{"theme":"dark"}"#, #"{"theme":"light"}"#])
        #expect(try b.evaluate("window.samePage") as? Bool == true, "no navigation")
        #expect(try b.evaluate("presenceObserved.sockets") as? Double == sockets, "no reconnect")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("the theme button overrides the system (Auto → Light → Dark → Auto), is remembered, and ?theme= forces")
    func toggleOverrides() throws {
        let server = try ServerProcess()
        let b = try browser(dark: true)
        defer { b.close() }
        try load(b, server, "?room=toggle")
        #expect(try string(b, Self.background) == Self.darkBackground)
        #expect(try string(b, "\(Self.root).themeChoice") == "system")
        let hud = BrowserHudTests()

        try hud.click(b, id: "theme-button")  // Light, over a dark system
        try b.waitFor("\(Self.background) === '\(Self.lightBackground)'", timeout: 5)
        #expect(try string(b, "\(Self.root).themeChoice") == "light")
        #expect(try string(b, "document.getElementById('theme-button').getAttribute('aria-label')") == "Theme: Light")
        #expect(try string(b, Self.pageBackground) == Self.lightBackground)
        try screenshot(b, "theme-light-over-dark-system")

        // Remembered: a reload comes back light, its hello asking for light.
        try load(b, server, "?room=toggle")
        #expect(try string(b, Self.background) == Self.lightBackground)
        #expect(try string(b, "\(Self.root).themeChoice") == "light")
        #expect(
            try string(b, "presenceObserved.sent.find(s => s.m.type === 'hello').m.theme") == "light")
        #expect(try preferencesSent(b) == [])
        // The system changing does not change an override.
        try emulate(b, dark: false)
        try emulate(b, dark: true)
        #expect(try string(b, "\(Self.root).theme") == "light")

        try hud.click(b, id: "theme-button")  // Dark
        try b.waitFor("\(Self.background) === '\(Self.darkBackground)'", timeout: 5)
        #expect(try string(b, "\(Self.root).themeChoice") == "dark")
        try hud.click(b, id: "theme-button")  // Auto: the system's, dark
        try b.waitFor("\(Self.root).themeChoice === 'system'", timeout: 5)
        try emulate(b, dark: false)
        try b.waitFor("\(Self.background) === '\(Self.lightBackground)'", timeout: 5)

        // ?theme= forces, whatever the system or the button says; the button says so and is off.
        try load(b, server, "?room=toggle&theme=dark")
        #expect(try string(b, Self.background) == Self.darkBackground)
        #expect(try string(b, "\(Self.root).themeChoice") == "forced")
        #expect(try b.evaluate("document.getElementById('theme-button').disabled") as? Bool == true)
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("no light flash: a dark page is dark from its first paint, before any frame")
    func noLightFlash() throws {
        let server = try ServerProcess()
        // The page's socket never opens: what is seen is the page before its first frame. Noted
        // as soon as <body> exists (the stylesheet and js/boot.js ran before it).
        let firstSight = """
            (() => {
              window.WebSocket = class { constructor() { this.readyState = 0; } send() {} close() {} };
              window.atBody = null;
              const note = () => {
                if (window.atBody || !document.body) return false;
                const m = getComputedStyle(document.body).backgroundColor;
                window.atBody = { background: m, theme: document.documentElement.getAttribute('data-theme') };
                return true;
              };
              new MutationObserver((_, o) => { if (note()) o.disconnect(); }).observe(document, { childList: true, subtree: true });
            })();
            """
        for (system, stored, expected) in [
            (true, nil, "dark"), (false, "dark", "dark"), (true, "light", "light"), (true, "dark", "dark"),
        ] as [(Bool, String?, String)] {
            let b = try Chromium()
            defer { b.close() }
            try b.setViewport(width: 390, height: 844, deviceScaleFactor: 1)
            try emulate(b, dark: system)
            if let stored {
                try b.navigate(server.httpURL + "js/boot.js")  // the origin, without the page
                _ = try b.evaluate("localStorage.setItem('scroll-widgets.theme', '\(stored)')")
            }
            try b.call("Page.addScriptToEvaluateOnNewDocument", ["source": firstSight])
            try b.navigate(server.httpURL + "?room=flash")
            let label = "system \(system ? "dark" : "light"), stored \(stored ?? "none")"
            let seen = try #require(b.evaluate("window.atBody") as? [String: Any], "\(label)")
            let rgb = expected == "dark" ? "rgb(0, 0, 0)" : "rgb(242, 242, 247)"
            #expect(seen["background"] as? String == rgb && seen["theme"] as? String == expected, "\(label): \(seen)")
            #expect(try string(b, "\(Self.root).connection") == "connecting", "\(label): no frame came")
            #expect(try b.evaluate("Number(\(Self.root).frames || 0)") as? Double == 0, "\(label)")
            #expect(try string(b, Self.pageBackground) == (expected == "dark" ? "#000000" : "#F2F2F7"), "\(label)")
            try screenshot(b, "theme-before-first-frame-\(system ? "dark" : "light")-\(stored ?? "none")")
        }
    }

    @Test("reduced motion turned on live: the roller shows the number it heads for at once, without rolling")
    func reducedMotionLive() throws {
        let server = try ServerProcess()
        let b = try browser(dark: false)
        defer { b.close() }
        try load(
            b, server, "?scene=roller&room=motion",
            ready: "document.querySelectorAll('#semantics [role=button]').length === 5")
        #expect(try string(b, "\(Self.root).reducedMotion") == "false")
        // Every painted frame's roller band (scene 0…390 × 40…120), as a hash, when it differs
        // from the one before: the images the roller showed, in order.
        _ = try b.evaluate(
            """
            (() => { const c = document.getElementById('canvas'); const g = c.getContext('2d');
              const hash = () => { const k = c.width / 390; const d = g.getImageData(0, 40 * k, c.width, 80 * k).data;
                let h = 2166136261; for (let i = 0; i < d.length; i += 4) h = Math.imul(h ^ (d[i] + 3 * d[i + 1] + 7 * d[i + 2]), 16777619);
                return h >>> 0; };
              window.rollerImages = [hash()];
              new MutationObserver(() => { const h = hash(); if (h !== rollerImages.at(-1)) rollerImages.push(h); })
                .observe(document.documentElement, { attributes: true, attributeFilter: ['data-frames'] });
              return true; })()
            """)
        let roller = BrowserRollerTests()
        let status = "\(BrowserRollerTests.roller).textContent"

        // Motion as usual: 0 → 1 rolls (0.3 s), so the band shows steps in between.
        try roller.click(b, "rollerPlus1")
        try b.waitFor("\(status) === '1'", timeout: 10)
        let rolling = try #require(b.evaluate("rollerImages.length") as? Double)
        #expect(rolling > 2, "0 → 1 with motion: \(rolling) distinct images")

        // Reduced motion, live: sent at once, and +99 shows 100 at once, nothing in between.
        try emulate(b, dark: false, reducedMotion: true)
        try b.waitFor("\(Self.root).reducedMotion === 'true'", timeout: 5)
        #expect(try preferencesSent(b) == [#"{"reducedMotion":true}"#])
        try b.waitFor("presenceObserved.sent.some(s => s.m.type === 'preferences')", timeout: 5)
        _ = try b.evaluate("rollerImages.splice(0, rollerImages.length - 1).length")
        let before = try #require(b.evaluate("observed.frames") as? Double)
        try roller.click(b, "rollerPlus99")
        // The roll still takes its time on the server (the state is shared); then it settles.
        try b.waitFor("\(status) === '100'", timeout: 10)
        try b.waitFor("observed.frames > \(before) && performance.now() - observed.lastFrameAt > 300", timeout: 10)
        let images = try #require(b.evaluate("rollerImages") as? [Double])
        #expect(images.count == 2, "1 → 100 with reduced motion: \(images.count) distinct images (1, then 100)")
        try screenshot(b, "theme-reduced-motion-100")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }
}
