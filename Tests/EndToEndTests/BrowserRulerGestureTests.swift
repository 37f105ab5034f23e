import Foundation
import LoopbackTools
import Testing

/// The weight ruler of the demo scene (390 × 844 pt at phone size, so a CSS pixel is a scene
/// point; the ruler spans y 150–278 and starts at 72.5 kg) driven with real touch, mouse and
/// wheel events over CDP, each with its own timestamp: the server's velocity tracker reads the
/// page's `timeStamp`s, so a fling's speed is the one the test made, whatever the machine's load.
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

    enum Pointer: String, CaseIterable, CustomTestStringConvertible {
        case mouse, touch
        var testDescription: String { rawValue }
    }

    /// The demo at phone size, observed, once it shows the ruler's value.
    func open(_ server: ServerProcess, room: String) throws -> Chromium {
        try Chromium.openObserved(server.httpURL + "?room=\(room)", ready: "\(Self.value) > 0")
    }

    /// A horizontal stroke on the ruler: down at `x0`, `steps` moves `interval` s apart covering
    /// `dx`, then up `hold` s after the last move, at the last move's place.
    func stroke(
        _ b: Chromium, _ pointer: Pointer, from x0: Double, by dx: Double, steps: Int, interval: Double,
        hold: Double, t: inout Double
    ) throws {
        t = max(t, Date().timeIntervalSince1970)
        let end = x0 + dx
        switch pointer {
        case .mouse:
            try b.mouse("mousePressed", x: x0, y: Self.y, timestamp: t)
            for i in 1...steps {
                try b.mouse(
                    "mouseMoved", x: x0 + dx * Double(i) / Double(steps), y: Self.y, timestamp: t + interval * Double(i)
                )
            }
            try b.mouse("mouseReleased", x: end, y: Self.y, timestamp: t + interval * Double(steps) + hold)
        case .touch:
            try b.touch("touchStart", x: x0, y: Self.y, timestamp: t)
            for i in 1...steps {
                try b.touch(
                    "touchMove", x: x0 + dx * Double(i) / Double(steps), y: Self.y, timestamp: t + interval * Double(i))
            }
            try b.touch("touchEnd", timestamp: t + interval * Double(steps) + hold)
        }
        t += interval * Double(steps) + hold + 0.1
    }

    /// Waits for the ruler's `count`-th final value and returns it, checking that the slider shows it.
    func final(_ b: Chromium, _ count: Int, timeout: Double = 5) throws -> Double {
        try b.waitFor("\(Self.finals).length >= \(count)", timeout: timeout)
        let value = try #require(b.evaluate("\(Self.finals)[\(count - 1)].value") as? Double)
        try b.waitFor("\(Self.value) === \(value)", timeout: 5)
        return value
    }

    /// True when `value` kg is exactly on a 0.1-kg tick (the wire carries it as a decimal).
    func onTick(_ value: Double) -> Bool { abs(value * 10 - (value * 10).rounded()) < 1e-9 }

    @Test("a slow touch drag left by 100 pt raises the value by 1.0; right by 250 pt lowers it by 2.5")
    func touchDrag() throws {
        let server = try ServerProcess()
        let b = try open(server, room: "touch-drag")
        defer { b.close() }
        let start = try #require(b.evaluate(Self.value) as? Double)
        #expect(start == 72.5)
        // Every message the page sends from now on (its socket's send, passed through).
        _ = try b.evaluate(
            """
            (() => { const proto = Object.getPrototypeOf(WebSocket.prototype); const send = proto.send;
              window.sent = []; proto.send = function (data) { sent.push(JSON.parse(data)); return send.call(this, data); };
              return true; })()
            """)
        // 20 moves 16 ms apart, then still for 100 ms (> 40 ms): a placement, no fling.
        var t = 0.0
        try stroke(b, .touch, from: 300, by: -100, steps: 20, interval: 0.016, hold: 0.1, t: &t)
        #expect(try final(b, 1) == 73.5)
        try stroke(b, .touch, from: 80, by: 250, steps: 25, interval: 0.016, hold: 0.1, t: &t)
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
        arguments: Pointer.allCases)
    func fling(_ pointer: Pointer) throws {
        let server = try ServerProcess()
        let b = try open(server, room: "fling-\(pointer.rawValue)")
        defer { b.close() }
        let start = try #require(b.evaluate(Self.value) as? Double)
        let framesBefore = try b.evaluate("observed.frames") as? Int ?? 0
        // 150 pt in 12 moves 8 ms apart, lifted 4 ms after the last move (within 40 ms: it keeps
        // its speed). The finger alone takes the ruler 1.5 kg.
        let distance = 150.0, steps = 12, interval = 0.008
        var t = 0.0
        try stroke(b, pointer, from: 330, by: -distance, steps: steps, interval: interval, hold: 0.004, t: &t)
        let speed = distance / (Double(steps) * interval)  // 1562.5 pt/s
        let glide = speed / (-1000 * log(0.998))  // 780.5 pt (docs/PHYSICS.md, x∞ − x0)
        // Retargeted onto the tick nearest to x∞: 930.5 pt from the start → 93 ticks (4.5 pt
        // from either rounding boundary, so a little timestamp jitter cannot change it).
        let expected = start + ((distance + glide) / 10).rounded() / 10
        let value = try final(b, 1, timeout: 10)
        #expect(value > start + distance / 100 + 5, "it glided on from \(start + distance / 100): \(value)")
        #expect(onTick(value), "\(value) is on a 0.1 tick")
        #expect(abs(value - expected) < 1e-9, "rests on \(value); the physics says \(expected)")
        #expect(try b.evaluate("\(Self.finals).length") as? Int == 1, "one final value per gesture")
        let moving = try b.evaluate("observed.frames") as? Int ?? 0
        #expect(moving - framesBefore > 10, "frames painted while it glided: \(moving - framesBefore)")
        try b.saveScreenshot("ruler-after-\(pointer.rawValue)-fling")
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
