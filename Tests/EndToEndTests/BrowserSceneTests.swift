import Foundation
import LoopbackTools
import Testing

/// `?scene=` in a real page: the canvas takes the scene's shape; a wrong name is shown, not retried.
@Suite(.serialized) struct BrowserSceneTests {
    @Test("?scene=ruler lays out a 390 × 300 canvas and paints the ruler")
    func rulerScene() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 1)
        try b.navigate(server.httpURL + "?scene=ruler&room=solo")
        try b.waitFor(
            "document.documentElement.dataset.scene === 'ruler' && "
                + "Number(document.documentElement.dataset.frames) > 0", timeout: 10)
        let size =
            try b.evaluate(
                """
                (() => { const r = document.getElementById('canvas').getBoundingClientRect(); return [r.width, r.height]; })()
                """) as? [Double]
        // Fits the 390 pt width exactly: 390 × 300 CSS px.
        #expect(size == [390, 300], "\(size ?? [])")
        #expect(
            try b.evaluate("Number(document.querySelector('[data-widget=ruler]')?.getAttribute('aria-valuenow'))")
                as? Double == 72.5)
    }

    @Test("an unknown ?scene= shows the server's reason and stops reconnecting")
    func unknownScene() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL + "?scene=nope")
        try b.waitFor("document.documentElement.dataset.connection === 'refused'", timeout: 10)
        let banner =
            try b.evaluate(
                "document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent")
            as? String
        #expect(banner == "no scene \"nope\" (scenes: demo, ruler, picker, picker-free, carousel, roller)")
    }
}
