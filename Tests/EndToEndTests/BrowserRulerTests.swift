import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// The real page in headless Chromium, driven with real mouse events over CDP.
@Suite(.serialized) struct BrowserRulerTests {
    static let rulerY = 214.0
    static let value = "Number(document.querySelector('[data-widget=ruler]')?.getAttribute('aria-valuenow'))"

    /// Loads the page at phone size and waits until it is connected and has painted.
    func open(_ server: ServerProcess, query: String = "") throws -> Chromium {
        let browser = try Chromium()
        try browser.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try browser.navigate(server.httpURL + query)
        try browser.waitFor(
            "document.documentElement.dataset.connection === 'open' && "
                + "Number(document.documentElement.dataset.frames) > 0 && \(Self.value) > 0", timeout: 10)
        return browser
    }

    /// A slow drag, moves 16 ms apart, still for 100 ms before release (no fling).
    func drag(_ b: any BrowserPage, from x0: Double, by dx: Double, steps: Int = 20) throws {
        try b.perform(.stroke(from: x0, Self.rulerY, by: dx, 0, steps: steps, interval: 0.016, hold: 0.1))
    }

    @Test("dragging left by 100 pt raises aria-valuenow by 1.0; ten such drags by 10.0")
    func dragTheRuler() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        let start = try #require(b.evaluate(Self.value) as? Double)
        #expect(start == 72.5)
        try drag(b, from: 300, by: -100)
        // WIDGETS.md §1: ticks 10 pt apart, 0.1 kg each → 100 pt is 1.0 kg.
        try b.waitFor("Math.abs(\(Self.value) - \(start + 1.0)) < 0.05", timeout: 5)
        for _ in 1...9 { try drag(b, from: 300, by: -100) }
        try b.waitFor("Math.abs(\(Self.value) - \(start + 10.0)) < 0.05", timeout: 10)
        let text =
            try b.evaluate("document.querySelector('[data-widget=ruler]').getAttribute('aria-valuetext')") as? String
        #expect(text == "82.5 kg")
    }

    @Test("the canvas is painted: the ruler's ticks and the readout are not blank")
    func canvasIsNotBlank() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        // Distinct colours in the ruler band and in the readout band (device pixels, dpr 2).
        let distinct = """
            (() => { const c = document.getElementById('canvas'); const g = c.getContext('2d');
              const count = (y, h) => { const d = g.getImageData(0, y * 2, c.width, h * 2).data; const s = new Set();
                for (let i = 0; i < d.length; i += 4) s.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]); return s.size; };
              return [count(150, 128), count(48, 80)]; })()
            """
        let counts = try #require(b.evaluate(distinct) as? [Any]).compactMap { ($0 as? NSNumber)?.intValue }
        #expect(counts.count == 2)
        #expect(counts.allSatisfy { $0 >= 3 }, "colours per band: \(counts)")
        let png = try b.saveScreenshot("ruler-demo-painted").png
        #expect(png.count > 5_000)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test("the focused ruler's keys (from its semantics) move it and are kept from the browser; other keys are not")
    func keys() throws {
        let server = try ServerProcess()
        let b = try open(server)
        defer { b.close() }
        _ = try b.evaluate(
            """
            (() => { window.keyLog = [];
              document.addEventListener('keydown', e => keyLog.push(e.key + ':' + e.defaultPrevented));
              document.querySelector('[data-widget=ruler]').focus(); return true; })()
            """)
        // docs/PROTOCOL.md, key: PageUp +1.0, ArrowLeft −0.1, Home the first label (9.0 kg);
        // Enter is not one of the ruler's keys.
        try b.key("PageUp")
        try b.waitFor("\(Self.value) === 73.5", timeout: 5)
        try b.key("Enter")
        try b.key("ArrowLeft")
        try b.waitFor("\(Self.value) === 73.4", timeout: 5)
        try b.key("Home")
        try b.waitFor("\(Self.value) === 9", timeout: 5)
        #expect(try b.evaluate("keyLog.join(' ')") as? String == "PageUp:true Enter:false ArrowLeft:true Home:true")
    }

    @Test("a page speaking another protocol version says so visibly")
    func versionMismatchIsVisible() throws {
        // A stale copy of the page that speaks protocol 0, served by the current server.
        let publicDir = PackagePaths.publicDirectory
        let stale = FileManager.default.temporaryDirectory.appendingPathComponent("stale-page-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: publicDir, to: stale)
        defer { try? FileManager.default.removeItem(at: stale) }
        let client = stale.appendingPathComponent("js/client.js")
        let source = try String(contentsOf: client, encoding: .utf8)
        let current = "PROTOCOL_VERSION = \(ProtocolVersion.current);"
        #expect(source.contains(current))
        try source.replacingOccurrences(of: current, with: "PROTOCOL_VERSION = 0;")
            .write(to: client, atomically: true, encoding: .utf8)

        let server = try ServerProcess(arguments: ["--public", stale.path])
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL)
        try b.waitFor("document.documentElement.dataset.connection === 'mismatch'", timeout: 10)
        let banner =
            try b.evaluate(
                """
                (() => { const el = document.getElementById('banner');
                  return el.hidden ? '' : el.textContent + '|' + getComputedStyle(el).display; })()
                """) as? String
        #expect(banner?.contains("protocol 0") == true, "\(banner ?? "nil")")
        #expect(banner?.contains("server speaks \(ProtocolVersion.current)") == true, "\(banner ?? "nil")")
        #expect(banner?.hasSuffix("|none") == false)
    }
}
