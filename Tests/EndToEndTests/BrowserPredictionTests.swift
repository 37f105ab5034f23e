import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Drag prediction (docs/PROTOCOL.md, "Prediction") with 100 ms of simulated latency each way (in
/// Chromium, and in Firefox through BrowserFirefoxTests): once the server has said the page's pointer holds the ruler (`applied.follow`), a move
/// is painted at once, before any answer can come, and each frame that answers it corrects what was
/// shown by at most 2 pt, as does the fling's track at the release; the ruler rests where it rests
/// without prediction.
@Suite(.serialized) struct BrowserPredictionTests {
    static let y = 214.0
    static let finals = "observed.events.filter(e => e.widget === 'ruler' && e.type === 'value' && e.final)"

    /// The demo at phone size with `?latency=100` (and `?predict=1`), observed: every painted shift
    /// is noted in `shifts` with how many `applied` messages had come by then; with `paints`, every
    /// paint in `paintLog` with a hash of the ruler's band (`logPaints`).
    func open(_ server: ServerProcess, room: String, predict: Bool, _ engine: Engine = .chromium, paints: Bool = false)
        throws -> any BrowserPage
    {
        let b = try engine.openPage()
        if paints {
            let ruler = DemoScene.rulerFrame, height = DemoScene.size.height
            try b.logPaints(band: ruler.minY / height...ruler.maxY / height)
        }
        try b.addInitScript(
            """
            (() => {
              window.appliedCount = 0;
              window.shifts = [];
              const Native = window.WebSocket;
              window.WebSocket = class extends Native {
                constructor(...args) {
                  super(...args);
                  this.addEventListener('message', (e) => {
                    if (typeof e.data === 'string' && e.data.includes('"type":"applied"')) appliedCount += 1;
                  });
                }
              };
              new MutationObserver(() => shifts.push({ shift: Number(document.documentElement.dataset.predictShift), applied: appliedCount }))
                .observe(document, { subtree: true, attributes: true, attributeFilter: ['data-predict-shift'] });
            })();
            """)
        let query = "?room=\(room)&latency=100" + (predict ? "&predict=1" : "")
        try b.loadObserved(server.httpURL + query, ready: "\(BrowserRulerTests.value) > 0")
        return b
    }

    /// Down at 330, four moves of 10 pt left, still held.
    static let press = Gesture.stroke(.mouse, from: 330, y, by: -40, 0, steps: 4, interval: 0.016, hold: nil)
    /// Five quick moves of 10 pt 8 ms apart from 280, lifted 4 ms later: a fling of 1,250 pt/s.
    static let fling = Gesture(.mouse).then(.move, x: 270, y: y, at: 0).then(.move, x: 260, y: y, at: 0.008)
        .then(.move, x: 250, y: y, at: 0.016).then(.move, x: 240, y: y, at: 0.024).then(.move, x: 230, y: y, at: 0.032)
        .then(.up, x: 230, y: y, at: 0.036)

    @Test(
        "a move is painted at once, each frame corrects it by at most 2 pt, the release by at most 2 pt; it rests as without"
    )
    func predictsTheDrag() throws {
        let server = try ServerProcess()
        let (b, predicted) = try predicted(server, .chromium)
        defer { b.close() }
        let root = "document.documentElement.dataset"

        // The same gesture without prediction rests on the same tick.
        let plain = try open(server, room: "predict-off", predict: false)
        defer { plain.close() }
        // As in the first room, each step once the server has shown the one before (a velocity
        // is read from the samples of the last 100 ms only; these waits are longer).
        let start = try #require(plain.evaluate(BrowserRulerTests.value) as? Double)
        try BrowserRulerGestureTests.recordSent(plain)
        try plain.perform(Self.press)
        try plain.waitFor("Math.abs(\(BrowserRulerTests.value) - \(start + 0.4)) < 1e-9", timeout: 5)
        try plain.perform(Gesture(.mouse).then(.move, x: 280, y: Self.y, at: 0))
        try plain.waitFor("Math.abs(\(BrowserRulerTests.value) - \(start + 0.5)) < 1e-9", timeout: 5)
        try plain.perform(Self.fling)
        try plain.waitFor("\(Self.finals).length >= 1", timeout: 10)
        // Prediction changes nothing the page sends: the same pointer messages, so the same rest.
        // (The page's timestamps are rounded to 0.1 ms, so a fling whose projection falls within a
        // hundredth of a tick of halfway may take either neighbour: BrowserRulerGestureTests.)
        let sent = "JSON.stringify(sent.filter(m => m.type === 'pointer').map(m => [m.phase, m.x, m.y]))"
        #expect(try plain.evaluate(sent) as? String == b.evaluate(sent) as? String)
        let plainValue = try #require(plain.evaluate("\(Self.finals)[0].value") as? Double)
        #expect(abs(plainValue - predicted) <= 0.1 + 1e-9, "\(plainValue) without prediction, \(predicted) with")
        #expect(try plain.evaluate("\(root).predict") == nil && plain.evaluate("shifts.length") as? Int == 0)
    }

    /// The drag and fling with `?predict=1` in `engine`: the checks every engine must pass, and the
    /// value it rested on (the page is left open, its `sent` recorded).
    func predicted(_ server: ServerProcess, _ engine: Engine) throws -> (any BrowserPage, Double) {
        let root = "document.documentElement.dataset"
        let b = try open(server, room: "predict-on-\(engine)", predict: true, engine)
        do {
            #expect(try b.evaluate("\(root).predict") as? String == "on")
            try BrowserRulerGestureTests.recordSent(b)
            try b.perform(Self.press)
            // The server has answered the press: it holds the ruler, and the page shows what it says.
            try b.waitFor("Number(\(root).predictCorrections) >= 1 && \(root).predictShift === '0.00'", timeout: 5)
            let applied = try #require(b.evaluate("appliedCount") as? Int)
            try b.perform(Gesture(.mouse).then(.move, x: 280, y: Self.y, at: 0))
            // Painted with the move before any answer came (the round trip is at least 200 ms).
            try b.waitFor("shifts.some(s => s.shift === -10 && s.applied === \(applied))", timeout: 2)
            // Then the server's frame shows it, and the guess is gone.
            try b.waitFor("appliedCount > \(applied) && \(root).predictShift === '0.00'", timeout: 5)
            try b.perform(Self.fling)
            try b.waitFor("\(Self.finals).length >= 1", timeout: 10)
            try b.waitFor("\(root).predictReleaseCorrection !== undefined", timeout: 5)
            let most = try #require(Double(b.evaluate("\(root).predictMaxCorrection") as? String ?? ""))
            let release = try #require(Double(b.evaluate("\(root).predictReleaseCorrection") as? String ?? ""))
            #expect(most <= 2, "a frame moved the ruler \(most) pt from where the page showed it")
            #expect(release <= 2, "the fling's track started \(release) pt from where the finger was shown")
            return (b, try #require(b.evaluate("\(Self.finals)[0].value") as? Double))
        } catch {
            b.close()
            throw error
        }
    }

    @Test(
        "with 100 ms each way: a move of the held ruler is painted in the first or second display frame with prediction, not before the 200 ms round trip without"
    )
    func moveToPaint() throws {
        let server = try ServerProcess()
        var medians: [Bool: (Double, Double)] = [:]
        for predict in [true, false] {
            let b = try open(server, room: "move-to-paint-\(predict)", predict: predict, paints: true)
            defer { b.close() }
            try BrowserRulerGestureTests.recordSent(b)
            try b.perform(Self.press)
            try b.waitUntilAnswered(after: 0)
            if predict {
                // The server said the page's pointer holds the ruler (`applied.follow`), and its
                // frames have since replaced a guess.
                let root = "document.documentElement.dataset"
                try b.waitFor("Number(\(root).predictCorrections) >= 1 && \(root).predictShift === '0.00'", timeout: 5)
            }
            var samples: [(ms: Double, frames: Int, fromStamp: Double)] = []
            for i in 1...5 {
                let count = try b.pointersSent()
                let x = 290 - 10 * Double(i)
                samples.append(try b.timeToMovedPaint(Gesture(.mouse).then(.move, x: x, y: Self.y, at: 0)))
                try b.waitUntilAnswered(after: count)
            }
            if predict {
                // Typically the display frame the move came in or the next: a figure of the machine
                // (a busy one lets a paint slip a frame or two), so the median is held to it.
                let frames = samples.map(\.frames).sorted()
                #expect(frames[0] >= 1 && frames[frames.count / 2] <= 2, "\(samples)")
            }
            for s in samples {
                if predict {
                    // Painted long before any answer can come.
                    #expect(s.ms < 200, "\(samples)")
                } else {
                    // Painted when the server's frame comes: not before the round trip.
                    #expect(s.ms >= 200, "\(samples)")
                }
            }
            let median = { (times: [Double]) in times.sorted()[times.count / 2] }
            medians[predict] = (median(samples.map(\.ms)), median(samples.map(\.fromStamp)))
            print(
                "moveToPaint: predict \(predict): move → moved paint "
                    + samples.map {
                        String(format: "%.1f ms (%d frames; %.1f from its timestamp)", $0.ms, $0.frames, $0.fromStamp)
                    }
                    .joined(separator: ", "))
        }
        for (predict, m) in medians.sorted(by: { $0.key && !$1.key }) {
            print(
                String(
                    format: "moveToPaint: predict \(predict): median %.1f ms (%.1f from the move's timestamp)", m.0, m.1
                ))
        }
    }
}
