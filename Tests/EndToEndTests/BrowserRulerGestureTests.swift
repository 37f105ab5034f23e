import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// The weight ruler of the demo scene (390 × 844 pt at phone size, so a CSS pixel is a scene
/// point; the ruler spans y 150–278 and starts at 72.5 kg) driven with real touch, mouse and
/// wheel events. In Chromium each event carries the timestamp the test gave it (CDP): the server's
/// velocity tracker reads the page's `timeStamp`s, so a fling's speed is the one the test made,
/// whatever the machine's load. In Firefox (the touch drags and the flings, `BrowserFirefoxTests`)
/// the browser stamps them as it plays them in real time, so a fling's speed is measured from what
/// the page sent.
///
/// Numbers (WIDGETS.md §1, docs/PHYSICS.md): ticks 10 pt apart, 0.1 kg each, so a drag of D pt
/// moves the value by D / 100 kg; content follows the finger (dragging left raises the value); a
/// lift more than 40 ms after the last move has no velocity; a fling at v pt/s glides on
/// v / (−1000·ln 0.998) pt (`.normal` deceleration) and is retargeted onto the tick nearest to
/// where it would have stopped; every gesture ends exactly on a tick, reported once as final.
@Suite(.serialized) struct BrowserRulerGestureTests {
    static let y = 214.0
    static let value = BrowserRulerTests.value
    /// The ruler's final values the page received, in order.
    static let finals = "observed.events.filter(e => e.widget === 'ruler' && e.type === 'value' && e.final)"

    /// The demo at phone size, observed, once it shows the ruler's value.
    func open(_ server: ServerProcess, room: String, _ engine: Engine = .chromium) throws -> any BrowserPage {
        try engine.openObserved(server.httpURL + "?room=\(room)", ready: "\(Self.value) > 0")
    }

    /// From now on the page notes every message it sends in `window.sent`, parsed (the native
    /// `WebSocket.prototype.send`, passed through, under any subclass a test's init script made).
    static func recordSent(_ b: any BrowserPage) throws {
        _ = try b.evaluate(
            """
            (() => { let proto = WebSocket.prototype;
              while (Object.getPrototypeOf(proto) !== EventTarget.prototype) proto = Object.getPrototypeOf(proto);
              const send = proto.send;
              window.sent = []; proto.send = function (data) { sent.push(JSON.parse(data)); return send.call(this, data); };
              return true; })()
            """)
    }

    /// Waits for the ruler's `count`-th final value and returns it, checking that the slider shows it.
    func final(_ b: any BrowserPage, _ count: Int, timeout: Double = 5) throws -> Double {
        try b.waitFor("\(Self.finals).length >= \(count)", timeout: timeout)
        let value = try #require(b.evaluate("\(Self.finals)[\(count - 1)].value") as? Double)
        try b.waitFor("\(Self.value) === \(value)", timeout: 5)
        return value
    }

    /// True when `value` kg is exactly on a 0.1-kg tick (the wire carries it as a decimal).
    func onTick(_ value: Double) -> Bool { abs(value * 10 - (value * 10).rounded()) < 1e-9 }

    /// The latest gesture as the page sent it (`recordSent`): how far the finger took the ruler
    /// (pt, content following it), the velocity the server's tracker takes from its samples at the
    /// lift (pt/s of the pointer; docs/PHYSICS.md, "Velocity tracker": `VelocityTracker`, held to
    /// those rules by its own tests), and how long after the last sample the lift came (s).
    static func released(_ b: any BrowserPage) throws -> (travel: Double, velocity: Double, liftGap: Double) {
        let sent = try #require(
            b.evaluate(
                """
                (() => { const p = sent.filter(m => m.type === 'pointer');
                  const g = p.slice(p.findLastIndex(m => m.phase === 'down'));
                  return { samples: g.filter(m => m.phase !== 'up').flatMap(m => m.coalesced ?? [[m.x, m.y, m.t]]),
                    lift: g.find(m => m.phase === 'up')?.t ?? null }; })()
                """) as? [String: Any])
        let samples = try #require(sent["samples"] as? [[Double]])
        let lift = try #require((sent["lift"] as? NSNumber)?.doubleValue) / 1000
        var tracker = VelocityTracker()
        for s in samples { tracker.add(time: s[2] / 1000, position: s[0]) }
        let first = try #require(samples.first), last = try #require(samples.last)
        return (first[0] - last[0], tracker.velocity(liftTime: lift), lift - last[2] / 1000)
    }

    @Test("a slow touch drag left by 100 pt raises the value by 1.0; right by 250 pt lowers it by 2.5")
    func touchDrag() throws { try touchDrag(.chromium) }

    func touchDrag(_ engine: Engine) throws {
        let server = try ServerProcess()
        let b = try open(server, room: "touch-drag", engine)
        defer { b.close() }
        let start = try #require(b.evaluate(Self.value) as? Double)
        #expect(start == 72.5)
        try Self.recordSent(b)
        // 20 moves 16 ms apart, then still for 100 ms (> 40 ms): a placement, no fling.
        try b.perform(.stroke(.touch, from: 300, Self.y, by: -100, 0, steps: 20, interval: 0.016, hold: 0.1))
        #expect(try final(b, 1) == 73.5)
        try b.perform(.stroke(.touch, from: 80, Self.y, by: 250, 0, steps: 25, interval: 0.016, hold: 0.1))
        #expect(try final(b, 2) == 71.0)
        #expect(try b.spoken() == ["73.5 kg", "71.0 kg"], "the live region hears each final value once")
        // The page sent both gestures as touch pointers: down, moves, up.
        let phases = try b.evaluate(
            "[...new Set(sent.filter(m => m.type === 'pointer').map(m => m.pointerType + ' ' + m.phase))]")
        #expect(phases as? [String] == ["touch down", "touch move", "touch up"])
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test(
        "a fling left at 1562.5 pt/s glides past where the finger left it and rests on the tick the physics names",
        arguments: Gesture.Pointer.allCases)
    func fling(_ pointer: Gesture.Pointer) throws { try fling(pointer, .chromium) }

    func fling(_ pointer: Gesture.Pointer, _ engine: Engine) throws {
        let server = try ServerProcess()
        // 150 pt in 12 moves 8 ms apart (1562.5 pt/s), lifted 4 ms after the last move (within
        // 40 ms: it keeps its speed). The finger alone takes the ruler 1.5 kg.
        let distance = 150.0, steps = 12, interval = 0.008
        let speed = distance / (Double(steps) * interval)
        // Stamped by the test (Chromium), the samples say 1562.5 pt/s (to the 0.1 ms the page's
        // timestamps are rounded to). Played by Firefox, they come every 17-20 ms at whole pixels,
        // the last where the stroke ends however soon after the one before, so the fit at the lift
        // reads 0.5-1.15 times the pace (seen: 776-1780 pt/s; 451 three times in one CI run beside
        // the other suites' browsers, 128 three times in another), and the physics is checked at
        // the speed the samples say: any speed from twice the tracker's least fling speed (100
        // pt/s, a glide of 50 pt, five ticks) up. On a loaded machine the lift can come more than
        // 40 ms after the last move (a placement), or the moves so late that it is hardly a fling:
        // that is this test's premise failing, not its result, and the fling is made again in a
        // fresh room (at most five times). So are Chromium samples that do not say the pace the
        // test stamped (seen once, on a machine running another test process: 5,937 pt/s), and
        // Firefox samples bunched so that the last step reads far faster than the pace (seen
        // once: 8,000 pt/s; three times in a row in one CI run beside the other suites' browsers:
        // 6,625 pt/s).
        let leastFirefox = 2 * VelocityTracker.minFlingSpeed
        let expected = engine == .chromium ? (0.99 * speed)...(1.01 * speed) : leastFirefox...(1.6 * speed)
        let slowest = engine == .chromium ? 0 : expected.lowerBound
        let fastest = expected.upperBound
        var b: (any BrowserPage)!
        var release = (travel: 0.0, velocity: 0.0, liftGap: Double.infinity)
        var start = 0.0, framesBefore = 0
        for attempt in 1...5
        where release.liftGap > VelocityTracker.maxGap || -release.velocity < slowest || -release.velocity > fastest {
            b?.close()
            b = try open(server, room: "fling-\(pointer)-\(attempt)", engine)
            start = try #require(b.evaluate(Self.value) as? Double)
            framesBefore = try b.evaluate("observed.frames") as? Int ?? 0
            try Self.recordSent(b)
            try b.perform(
                .stroke(pointer, from: 330, Self.y, by: -distance, 0, steps: steps, interval: interval, hold: 0.004))
            release = try Self.released(b)
        }
        defer { b.close() }
        let measured = -release.velocity
        try #require(
            release.liftGap <= VelocityTracker.maxGap && measured >= slowest && measured <= fastest,
            "five times: lifted \(release.liftGap) s after the last move, at \(measured) pt/s")
        #expect(expected.contains(measured), "the page's samples say \(measured) pt/s")
        #expect(abs(release.travel - distance) < 1e-9, "the finger moved \(release.travel) pt")
        // The glide (docs/PHYSICS.md, x∞ − x0): 780.5 pt at 1562.5 pt/s. Retargeted onto the tick
        // nearest to x∞: at that speed 930.5 pt from the start → 93 ticks.
        let glide = measured / (-1000 * log(0.998))
        let ticks = (release.travel + glide) / 10
        let value = try final(b, 1, timeout: 10)
        // At least half the glide on (the nearest tick is within half a tick of it; the glide is 5 ticks or more).
        #expect(
            value > start + distance / 100 + glide / 200,
            "it glided on \(glide) pt from \(start + distance / 100): \(value)")
        #expect(onTick(value), "\(value) is on a 0.1 tick")
        // Within a hundredth of a tick of halfway, either neighbour is the nearest as the doubles fall.
        let nearest =
            abs(ticks - ticks.rounded(.down) - 0.5) < 0.01
            ? [ticks.rounded(.down), ticks.rounded(.up)] : [ticks.rounded()]
        #expect(
            nearest.contains { abs(value - (start + $0 / 10)) < 1e-9 },
            "rests on \(value); the physics says \(start) + \(ticks) ticks")
        #expect(try b.evaluate("\(Self.finals).length") as? Int == 1, "one final value per gesture")
        let moving = try b.evaluate("observed.frames") as? Int ?? 0
        #expect(moving - framesBefore > 10, "frames painted while it glided: \(moving - framesBefore)")
        try b.saveScreenshot("ruler-after-\(pointer)-fling")
    }

    @Test(
        "the wheel over the ruler: 100 px down raises it by 1.0; 37 px more rests on the nearest tick; left lowers it")
    func wheel() throws {
        let server = try ServerProcess()
        // A desktop window at 1×: with a device scale factor emulated, Chromium divides CDP's
        // wheel deltas by it (at 2× the page sees half), so the wheel is tested where wheels are.
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 1)
        try b.observePage()
        try b.navigate(server.httpURL + "?room=wheel")
        try b.waitFor(
            "document.documentElement.dataset.connection === 'open' && \(Self.value) === 72.5", timeout: 10)
        _ = try b.evaluate(
            """
            (() => { window.wheels = [];
              addEventListener('wheel', e => wheels.push([e.deltaX, e.deltaY, e.deltaMode].join(' ')), { capture: true });
              return true; })()
            """)
        // docs/PROTOCOL.md, wheel: pixel deltas become scene points (1:1 here); a vertical wheel
        // turns the dial, down moving on like dragging left; after the burst it settles on a tick.
        try b.wheel(x: 195, y: Self.y, dy: 100)
        #expect(try final(b, 1) == 73.5)
        // 3.7 ticks on: the nearest tick is 4 on, 73.9.
        try b.wheel(x: 195, y: Self.y, dy: 37)
        #expect(try final(b, 2) == 73.9)
        // Horizontal: the larger delta wins; content moves with it, so left (negative) lowers it.
        try b.wheel(x: 195, y: Self.y, dx: -250, dy: 10)
        #expect(try final(b, 3) == 71.4)
        let wheels = try b.evaluate(
            "observed.events.filter(e => e.widget === 'ruler' && e.type === 'value' && e.final).map(e => e.text)")
        #expect(wheels as? [String] == ["73.5 kg", "73.9 kg", "71.4 kg"])
        #expect(try b.evaluate("wheels") as? [String] == ["0 100 0", "0 37 0", "-250 10 0"], "what the page saw")
        #expect(try b.evaluate("window.scrollY") as? Int == 0, "the wheel did not scroll the page")
    }
}
