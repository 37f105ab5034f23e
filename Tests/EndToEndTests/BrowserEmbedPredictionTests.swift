import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// `<scroll-widget predict>` (docs/EMBEDDING.md, "Attributes"): in the example page `embed.html`,
/// with everything the server sends held back 100 ms by the test (the element has no `?latency=`),
/// a move of the held ruler is painted at once with the attribute and only when the server's frame
/// comes without it; the attribute turns prediction on and off while the ruler is held.
@Suite(.serialized) struct BrowserEmbedPredictionTests {
    /// How long the test holds every message the server sends before the page sees it (ms).
    static let delay = 100.0

    @Test(
        "with the predict attribute a held ruler's move is painted in the first or second display frame; without it, not before the server's frame"
    )
    func predictAttribute() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        // The ruler scene is 390 × 300 pt, the ruler y 150…278 (RulerScene).
        try b.logPaints(band: 150.0 / 300...278.0 / 300)
        // A slow network one way: each message's handler runs `delay` ms after it came, in order
        // (the page's own WebSocket sets `onmessage`; what it sends goes at once).
        try b.addInitScript(
            """
            (() => {
              const Native = window.WebSocket;
              window.WebSocket = class extends Native {
                set onmessage(fn) { super.onmessage = fn && ((e) => setTimeout(() => fn.call(this, e), \(Self.delay))); }
                get onmessage() { return super.onmessage; }
              };
            })();
            """)
        try b.navigate(server.httpURL + "embed.html")
        let embed = BrowserEmbedTests()
        try embed.waitUntilReady(b)
        try BrowserRulerGestureTests.recordSent(b)
        let weight = BrowserEmbedTests.weight
        #expect(try b.evaluate("\(weight).hasAttribute('predict')") as? Bool == false)

        // Held at scene point (300, 214), moved 10 pt left at a time.
        let p = try embed.place(b, "weight", x: 300, y: 214)
        var x = p.x
        let step = { () -> Gesture in
            x -= 10 * p.scale
            return Gesture(.mouse).then(.move, x: x, y: p.y, at: 0)
        }
        try b.perform(Gesture(.mouse).then(.down, x: x, y: p.y, at: 0))
        try b.perform(step())
        try b.waitUntilAnswered(after: 0)

        /// Three moves, each once the one before was answered and painted.
        func moves() throws -> [(ms: Double, frames: Int, fromStamp: Double)] {
            try (1...3).map { _ in
                let count = try b.pointersSent()
                let sample = try b.timeToMovedPaint(step())
                try b.waitUntilAnswered(after: count)
                return sample
            }
        }
        /// Turns the attribute on or off, then moves once so that the server's next `applied`
        /// (with `follow`) names an input this element's prediction knows.
        func predict(_ on: Bool) throws {
            _ = try b.evaluate("\(weight).toggleAttribute('predict', \(on))")
            let count = try b.pointersSent()
            try b.perform(step())
            try b.waitUntilAnswered(after: count)
        }

        let off = try moves()
        try predict(true)
        let on = try moves()
        try predict(false)
        let offAgain = try moves()
        for s in off + offAgain {
            // Shown when the server's frame comes: the test holds it back 100 ms.
            #expect(s.ms >= Self.delay, "without: \(off), \(offAgain)")
        }
        for s in on {
            #expect(s.frames >= 1 && s.frames <= 2 && s.ms < Self.delay, "with predict: \(on)")
        }
        try b.perform(.release(x: x, y: p.y, after: 0))
        let show = { (samples: [(ms: Double, frames: Int, fromStamp: Double)]) in
            samples.map { String(format: "%.1f ms (%d frames)", $0.ms, $0.frames) }.joined(separator: ", ")
        }
        print("predictAttribute: without \(show(off)); with \(show(on)); without again \(show(offAgain))")
    }
}
