import Foundation
import LoopbackTools
import Testing

/// The README's picture of the page (`docs/screenshot.png`) is made by this test: the demo scene
/// in the light theme on a 390 × 844 phone screen at 2×, at rest. Every run saves it as the test
/// artefact `readme-demo.png`; `UPDATE_SCREENSHOT=1 swift test --filter ReadmeScreenshot` also
/// writes it to `docs/screenshot.png`.
@Suite(.serialized) struct BrowserReadmeScreenshotTests {
    @Test("the demo page at 390 × 844 (2×), light: saved as an artefact, and as docs/screenshot.png when asked")
    func readmeScreenshot() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?theme=light",
            ready: "document.querySelectorAll('#semantics [data-widget]').length >= 12")
        defer { b.close() }
        // At rest: nothing has been painted for half a second.
        try b.waitFor("performance.now() - observed.lastFrameAt > 500", timeout: 10)

        // Not blank: the canvas holds many colours (text, ticks, icons), not one background.
        let colours = try #require(
            b.evaluate(
                """
                (() => { const c = document.getElementById('canvas');
                  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; const s = new Set();
                  for (let i = 0; i < d.length; i += 4) s.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]); return s.size; })()
                """) as? Int)
        #expect(colours > 20, "distinct colours on the canvas: \(colours)")

        let shot = try b.saveScreenshot("readme-demo")
        #expect(Array(shot.png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        if ProcessInfo.processInfo.environment["UPDATE_SCREENSHOT"] == "1" {
            try shot.png.write(to: PackagePaths.root.appendingPathComponent("docs/screenshot.png"), options: .atomic)
        }
    }
}
