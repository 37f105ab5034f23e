import Foundation
import LoopbackTools
import Testing

/// The README's picture of the page (`docs/screenshot.png`): the demo scene in the light theme on a
/// 390 × 844 phone screen at 2×, at rest. Every run checks that the page shows what the picture's
/// alt text in README.md says and saves the picture as the test artefact `readme-demo.png`;
/// `make screenshot` (UPDATE_SCREENSHOT=1) also writes it to `docs/screenshot.png`.
@Suite(.serialized) struct BrowserReadmeScreenshotTests {
    /// What the README's alt text names, as the page shows it: the status, the widgets' values (their
    /// semantics) and the furniture's labels.
    static let described: [String: String] = [
        "status": "Connected", "haptics": "on", "sound": "off", "readout": "72.5 kg", "ruler": "72.5",
        "count": "0", "carousel": "Sun Moon Star Heart Leaf", "selected": "Star", "itemName": "Star",
        "roller": "0", "room": "lobby", "people": "1 here", "theme": "Light",
    ]

    @Test(
        "the demo page at 390 × 844 (2×), light, shows what the README's picture says; saved as an artefact (and to docs/)"
    )
    func readmeScreenshot() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?theme=light",
            ready: "document.querySelectorAll('#semantics [data-widget]').length >= 12")
        defer { b.close() }
        // At rest: nothing has been painted for half a second.
        try b.waitFor("performance.now() - observed.lastFrameAt > 500", timeout: 10)

        let shown = try #require(
            b.evaluate(
                """
                (() => { const $ = (s) => document.querySelector(s);
                  const w = (id) => $(`#semantics [data-widget=${id}]`);
                  const text = (id) => w(id).getAttribute('aria-valuetext');
                  return { status: $('#status').textContent, haptics: $('#haptics-switch').checked ? 'on' : 'off',
                    sound: $('#sound-switch').checked ? 'on' : 'off', readout: text('readout'),
                    ruler: w('ruler').getAttribute('aria-valuenow'), count: text('count'),
                    carousel: [...w('carousel').querySelectorAll('[role=option]')].slice(0, 5).map((o) => o.textContent).join(' '),
                    selected: w('carousel').querySelector('[aria-selected=true]').textContent,
                    itemName: text('itemName'), roller: text('roller'), room: $('#room-name').textContent,
                    people: $('#people-count').textContent, theme: $('#theme-button .label').textContent }; })()
                """) as? [String: String])
        #expect(shown == Self.described)

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
