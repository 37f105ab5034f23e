import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Public/js/track.js and the painter play tracks as Track.swift evaluates them (docs/PROTOCOL.md,
/// "Tracks"), and a real ruler fling reaches the page as one drawing and one track.
@Suite(.serialized) struct BrowserTrackTests {
    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// A finger flinging the demo's ruler: 12 moves 150 pt left in 96 ms (1562.5 pt/s), lifted 4 ms
    /// later.
    static let fling = Gesture.stroke(.touch, from: 330, 214, by: -150, 0, steps: 12, interval: 0.008, hold: 0.004)
    /// The demo ruler's layer: its widget's index + 1.
    static let rulerLayer = UInt16(DemoScene.make().widgets.firstIndex { $0.id == "ruler" }.map { $0 + 1 } ?? 0)

    /// Flings the demo's ruler (`fling`) on an observed page, and waits until the page shows the
    /// value the server says it rests on.
    static func flingToRest(_ b: Chromium) throws {
        try b.perform(fling)
        let finals = "observed.events.filter(e => e.widget === 'ruler' && e.type === 'value' && e.final)"
        try b.waitFor("\(finals).length >= 1", timeout: 10)
        let value = try #require(b.evaluate("\(finals)[0].value") as? Double)
        try b.waitFor("\(BrowserRulerTests.value) === \(value)", timeout: 5)
    }

    @Test("track.js gives every offset of the shared table within its tolerance, as TrackTests holds Track.swift to")
    func sharedTable() throws {
        let table = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("Tests/ScrollCoreTests/Tracks/track-cases.json"),
            encoding: .utf8)
        let answer = try #require(
            Chromium.evaluateOnPage(
                """
                (async () => {
                  const { trackOffset } = await import('/js/track.js');
                  const table = \(table);
                  const misses = [];
                  let checked = 0;
                  for (const c of table.cases) {
                    // Eased: [t, x, y, curve] and the curves in float32, as the wire has them.
                    const knots = c.knots.map((k) => c.curves
                      ? { t: k[0], x: c.axes === 2 ? 0 : k[1], y: c.axes === 1 ? 0 : k[2], vx: 0, vy: 0, curve: k[3] }
                      : { t: k[0], x: c.axes === 2 ? 0 : k[1], y: c.axes === 1 ? 0 : k[2], vx: c.axes === 2 ? 0 : k[3], vy: c.axes === 1 ? 0 : k[4] });
                    const wrap = c.wrap && { upper: c.wrap[0], period: c.wrap[1], x: (c.axes & 1) !== 0, y: (c.axes & 2) !== 0 };
                    const track = { start: c.start, knots };
                    if (wrap) track.wrap = wrap;
                    if (c.curves) track.curves = c.curves.map((curve) => curve.map(Math.fround));
                    for (const [time, x, y] of c.at) {
                      const [px, py] = trackOffset(track, time);
                      checked += 1;
                      if (Math.abs(px - x) > table.tolerance || Math.abs(py - y) > table.tolerance) {
                        misses.push(`${c.name} at ${time}: ${px}, ${py}`);
                      }
                    }
                  }
                  return { checked, misses };
                })()
                """) as? [String: Any], "the page's answer")
        #expect((answer["checked"] as? Int ?? 0) >= 20)
        #expect((answer["misses"] as? [String]) == [], "\(answer)")
    }

    /// What the page's painter translates a layer on `track` by, painted at each of `times` (room
    /// time): the track goes to the page in a frame, as the server sends it.
    static func painted(_ track: Track, at times: [Double]) throws -> [Point] {
        var list = DisplayList()
        list.save(); list.scroll(); list.fillRect(Rect(x: 0, y: 0, width: 1, height: 1)); list.restore()
        var encoder = FrameEncoder()
        let frame = encoder.encode([Layer(id: 1, list: list, track: track)], time: track.start)
        let got = try #require(
            Chromium.evaluateOnPage(
                """
                (async () => {
                  const m = await import('/js/painter.js');
                  const store = new m.LayerStore();
                  if (!store.apply(Uint8Array.from(atob('\(base64(frame.full))'), (c) => c.charCodeAt(0)).buffer)) return [];
                  return \(times).map((t) => {
                    const log = [];
                    const ctx = new Proxy({ canvas: { width: 1, height: 1 } }, {
                      get: (o, k) => k === 'canvas' ? o.canvas : (...a) => { if (k === 'translate') log.push(a); },
                      set: () => true,
                    });
                    m.paint(ctx, store, 1, 1, null, t);
                    return log[0];
                  });
                })()
                """) as? [[Double]])
        #expect(got.count == times.count && got.allSatisfy { $0.count == 2 })
        return got.map { Point(x: $0[0], y: $0[1]) }
    }

    @Test("the painter scrolls a layer by its track's offset at the time it paints, as Track.swift gives it")
    func paintedAtTheTrackOffset() throws {
        var axis = ScrollAxis(offset: 0, snap: SnapRule(step: 10, mode: .projected, settleDuration: 0.2))
        axis.touchDown(at: 300, clientTime: 0, time: 0)
        axis.touchMove(to: 280, clientTime: 0.01, time: 0.01)
        axis.touchUp(clientTime: 0.01, time: 0.01)
        let path = try #require(axis.plannedPath(from: 0.01))
        let track = try #require(
            TrackFitter.fit(from: 0.01, to: path.end, breaks: path.breaks) { Point(x: -axis.offset(at: $0), y: 0) })
        let times = [0.0, 0.1, 0.5, 1.0, path.end, path.end + 1]
        let got = try Self.painted(track, at: times).map(\.x)
        for (t, x) in zip(times, got) {
            // The page paints float64 offsets; Track.swift's are the same numbers.
            #expect(abs(x - track.offset(at: t).x) <= 0.01, "at \(t): painted \(x), the track \(track.offset(at: t).x)")
            #expect(abs(x + axis.offset(at: t)) <= 0.25, "at \(t): painted \(x), the ruler at \(-axis.offset(at: t))")
        }
    }

    @Test(
        "a wrapping track (a roller's column turning) reaches the painter through a frame and is painted as Track.swift shows it",
        arguments: [12, 5_000_000])
    func paintedWrapped(turns: Int) throws {
        // A column's strip of 10 rows of 40 pt turning 12 (or 5,000,000) times in 0.96 s, then
        // easing out. Millions of turns run billions of points on: a wide track (float64).
        var row = AnimatedValue(3)
        row.run(RepeatSimulation(from: 3, to: 13, period: 0.96 / Double(turns), count: turns), at: 0, target: 13)
        row.animate(from: 0, to: 8, at: 0.96, duration: 0.5)
        let path = row.unrolled(after: 0, period: 10)
        let track = try #require(
            TrackFitter.fit(
                from: 0, to: row.endTime, breaks: path.breaks, axes: .y, wrap: Track.Wrap(upper: 0, period: 400)
            ) { Point(x: 0, y: -path.value($0) * 40) })
        #expect(track.knots.count <= 16 && track.wide == (turns > 1000))
        let times = [0.0, 0.05, 0.3, 0.61, 0.95, 1.1, 1.3, row.endTime, row.endTime + 1]
        // Within the strip, on the row the column shows (mod one turn), within the spec's 0.25 pt.
        try Self.expectPaintedAsColumn(track, row: row, at: times, within: 0.25)
    }

    @Test(
        "an eased track (the same column's roll as its eased moves) reaches the painter through a frame and is painted as the roll is",
        arguments: [12, 5_000_000])
    func paintedEased(turns: Int) throws {
        var row = AnimatedValue(3)
        row.animate(to: 10, at: 0, duration: 0.3, curve: .easeIn)
        row.run(RepeatSimulation(from: 0, to: 10, period: 0.96 / Double(turns), count: turns), at: 0.3, target: 10)
        row.animate(from: 0, to: 8, at: 1.26, duration: 0.5, curve: .easeOut)
        let keyframes = try #require(row.keyframes(after: 0, period: 10)).map {
            Track.Keyframe(time: $0.time, offset: Point(x: 0, y: -$0.offset.y * 40), curve: $0.curve)
        }
        let track = try #require(Track(axes: .y, keyframes: keyframes, wrap: Track.Wrap(upper: 0, period: 400)))
        // A knot a move, the two curves named once: 4 knots, exact (no fitting).
        #expect(track.knots.count == 4 && track.curves?.map(\.x1) == [Double(Float(0.42)), 0])
        #expect(track.wide == (turns > 1000))
        let times = [0.0, 0.1, 0.2, 0.29, 0.61, 1.25, 1.3, 1.5, 1.7, row.endTime, row.endTime + 1]
        // Exact: the row itself, not a fit of it.
        try Self.expectPaintedAsColumn(track, row: row, at: times, within: 0.01, toTheTrack: 1e-9)
    }

    /// A column's `track` (rows of 40 pt, a turn of 400) painted at `times` as Track.swift gives it
    /// (within `toTheTrack` pt: track.js takes the same steps, the painter's own arithmetic may move
    /// the last bit), within the strip on the row `row` shows (mod one turn) within `tolerance`,
    /// resting on 8.
    static func expectPaintedAsColumn(
        _ track: Track, row: AnimatedValue, at times: [Double], within tolerance: Double, toTheTrack: Double = 0.01,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let got = try painted(track, at: times).map(\.y)
        for (t, y) in zip(times, got) {
            let expected = track.offset(at: t).y
            #expect(
                abs(y - expected) <= toTheTrack, "at \(t): painted \(y), the track \(expected)",
                sourceLocation: sourceLocation)
            let shown = -row.value(at: t) * 40
            let apart = (y - shown).truncatingRemainder(dividingBy: 400)
            #expect(
                y > -400 && y <= 0 && min(abs(apart), 400 - abs(apart)) <= tolerance,
                "at \(t): \(y), the column \(shown)", sourceLocation: sourceLocation)
        }
        #expect(got.last == -320, sourceLocation: sourceLocation)
    }

    @Test(
        "a catch's hold: a moving track shown at the down's time until its input is answered or a new entry comes; none once it ended"
    )
    func catchHold() throws {
        // A track from x 0 at room time 1 to x −100 at 2 (straight: 100 pt/s).
        let track = Track(start: 1, axes: .x, knots: [.init(t: 0, x: 0, vx: -100), .init(t: 1, x: -100, vx: -100)])
        var list = DisplayList()
        list.save(); list.scroll(); list.fillRect(Rect(x: 0, y: 0, width: 1, height: 1)); list.restore()
        var encoder = FrameEncoder()
        let first = encoder.encode([Layer(id: 1, list: list, track: track)], time: 1)
        let kept = encoder.encode([Layer(id: 1, list: list, track: track)], time: 1.2)
        let caught = encoder.encode([Layer(id: 1, list: list, offset: Point(x: -51, y: 0))], time: 1.51)
        let got = try #require(
            Chromium.evaluateOnPage(
                """
                (async () => {
                  const m = await import('/js/painter.js');
                  const bytes = (b) => Uint8Array.from(atob(b), (c) => c.charCodeAt(0)).buffer;
                  const store = new m.LayerStore();
                  store.apply(bytes('\(Self.base64(first.full))'));
                  const shown = (at) => store.shownAt(1, store.layers.get(1), at);
                  const out = [shown(1.7)];
                  store.hold(1, 1.5, 42);          // the page's down, input t 42, at room time 1.5
                  out.push(shown(1.7), shown(1.4));
                  store.apply(bytes('\(Self.base64(kept.delta))'));   // a keep: still held
                  out.push(shown(1.8));
                  store.release(41);               // an answer to an earlier input: still held
                  out.push(shown(1.8));
                  store.release(42);               // the down answered
                  out.push(shown(1.8));
                  store.hold(1, 1.6, 43);
                  store.apply(bytes('\(Self.base64(caught.delta))'));  // the catch's frame: a fixed offset
                  out.push(shown(1.9), store.holds.size);
                  const late = new m.LayerStore();
                  late.apply(bytes('\(Self.base64(first.full))'));
                  late.hold(1, 2.5, 44);           // after the track's end: nothing to hold
                  out.push(late.holds.size);
                  return out;
                })()
                """) as? [Double])
        #expect(got == [1.7, 1.5, 1.4, 1.5, 1.5, 1.8, 1.9, 0, 0], "\(got)")
    }

    @Test(
        "a real fling: the page receives the ruler as one drawing and one track, keeps it to the rest, and rests where the server does"
    )
    func flingInThePage() throws {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        // Every binary message the page receives, kept as it came.
        try b.addInitScript(
            """
            (() => {
              window.binaries = [];
              // Display frames, counted by a loop of their own: the page paints at most once in each.
              window.displayFrames = 0;
              const count = () => { displayFrames += 1; requestAnimationFrame(count); };
              requestAnimationFrame(count);
              const Native = window.WebSocket;
              window.WebSocket = class extends Native {
                constructor(...args) {
                  super(...args);
                  this.addEventListener('message', (e) => { if (typeof e.data !== 'string') binaries.push(e.data); });
                }
              };
            })();
            """)
        try b.loadObserved(server.httpURL + "?room=track-fling", ready: "\(BrowserRulerTests.value) > 0")
        let before = try #require(b.evaluate("binaries.length") as? Int)
        let paintsBefore = try #require(b.evaluate("observed.frames") as? Int)
        let displayBefore = try #require(b.evaluate("displayFrames") as? Int)
        try Self.flingToRest(b)
        let painted = try #require(b.evaluate("observed.frames") as? Int) - paintsBefore
        let shown = try #require(b.evaluate("displayFrames") as? Int) - displayBefore
        #expect(painted > 10 && painted <= shown + 1, "\(painted) paints in \(shown) display frames")
        let frames = try #require(
            b.evaluate(
                """
                (async () => {
                  const out = [];
                  for (const data of binaries.slice(\(before))) {
                    const bytes = new Uint8Array(data instanceof Blob ? await data.arrayBuffer() : data);
                    let s = ''; for (const x of bytes) s += String.fromCharCode(x);
                    out.push(btoa(s));
                  }
                  return out;
                })()
                """) as? [String])
        var kinds: [String] = []
        for text in frames {
            let frame = try DecodedFrame(Array(try #require(Data(base64Encoded: text))))
            guard let layer = frame.layers.first(where: { $0.id == Self.rulerLayer }) else { continue }
            switch (layer.ops != nil, layer.offset != nil, layer.track != nil) {
            case (false, false, false): kinds.append("keep")
            case (false, true, false): kinds.append("move")
            case (true, true, false): kinds.append("ops")
            case (_, false, true): kinds.append("track")
            default: kinds.append("?")
            }
        }
        // The drag's frames move it; from the lift on: one track, kept until it rests, then
        // its drawing at rest (and nothing more: it is still).
        let glide = try #require(kinds.firstIndex(of: "track"), "no track in \(kinds)")
        #expect(kinds[..<glide].allSatisfy { $0 == "move" || $0 == "ops" || $0 == "keep" }, "\(kinds)")
        let after = Array(kinds[(glide + 1)...])
        // (The frames in between are the readout's rolls starting: tracks too, a few a glide.)
        let rest = after.firstIndex { $0 != "keep" } ?? after.count
        #expect(
            Array(after[rest...]).allSatisfy { $0 == "ops" || $0 == "keep" }
                && after[rest...].filter { $0 == "ops" }.count <= 1, "\(kinds)")
        #expect(after.filter { $0 == "track" }.isEmpty, "one track for one glide: \(kinds)")
        try b.saveScreenshot("ruler-after-track-fling")
    }

    @Test(
        "above 60 Hz: while the fling's track moves, the page paints once in every display frame, several for each frame that comes"
    )
    func paintedAtTheDisplayRate() throws {
        let b = try Chromium(flags: [Chromium.unlimitedFrameRate])
        defer { b.close() }
        let rate = try paintsAtTheDisplayRate(b, room: "track-display-rate")
        // How far the display outruns the server depends on the machine: 310–668 a second here.
        #expect(rate.shown > rate.came, "\(rate.shown) display frames while \(rate.came) frames came")
    }

    @Test(
        "at a fixed 120 Hz (headless Firefox, layout.frame_rate): the fling's track is painted 120 times a second, every display frame, while a few frames come"
    )
    func paintedAt120Hz() throws {
        let firefox = try Firefox(more: Firefox.displayRate(120))
        defer { firefox.close() }
        let b = try firefox.newPage()
        let rate = try paintsAtTheDisplayRate(b, room: "track-120hz")
        // The premise: the display ticks at 120 Hz (8.3 ms), not the 60 of a headless Chromium.
        // Its ticks, not how many came: a loaded machine drops some (120 a second came alone; in
        // one full run beside the other suites' browsers, under 100).
        #expect(rate.tick > 7.5 && rate.tick < 9.5, "display ticks \(rate.tick) ms apart")
        #expect(rate.shown > 4 * rate.came, "\(rate.shown) display frames while \(rate.came) frames came")
    }

    /// Flings the demo's ruler on `b` (a fresh page) in `room` and measures the glide's first
    /// second on its track: the display frames, the paints (one in each, ±2: asserted) and the
    /// frames that came then.
    func paintsAtTheDisplayRate(_ b: any BrowserPage, room: String) throws -> (
        shown: Int, painted: Int, came: Int, seconds: Double, tick: Double
    ) {
        let server = try ServerProcess()
        try b.logPaints(keepFrames: true)
        var received: [(at: Double, frame: DecodedFrame)] = [], now = 0.0
        var glide: (at: Double, frame: DecodedFrame, track: Track)?
        // Firefox plays the stroke in real time: on a loaded machine its lift can come more than
        // 40 ms after the last move, a placement that ends on a tick with no glide and no track
        // (seen once in a CI run beside the other suites' browsers). That is the premise failing,
        // so the fling is made again in a fresh room, at most three times; no track after samples
        // that say a fling is the page's or the server's failure.
        for attempt in 1...3 where glide == nil {
            try b.loadObserved(server.httpURL + "?room=\(room)-\(attempt)", ready: "\(BrowserRulerTests.value) > 0")
            try BrowserRulerGestureTests.recordSent(b)
            let before = try #require(b.evaluate("paintLog.binaries.length") as? Int)
            // Unthrottled, the page paints as fast as the machine lets it and takes a core: measured
            // over the glide's first second only, then the browser goes (others test beside it).
            try b.perform(Self.fling)
            try b.waitFor(
                "paintLog.binaries.length > \(before) && performance.now() > paintLog.binaries[\(before)].at + 1300",
                timeout: 10)
            now = try #require(b.evaluate("performance.now()") as? Double)
            received = try b.receivedFrames(from: before)
            for (at, frame) in received where glide == nil {
                if let track = frame.layers.first(where: { $0.id == Self.rulerLayer })?.track {
                    glide = (at, frame, track)
                }
            }
            if let late = glide?.at, now < late + 1300 {
                // The glide's frame came well after the stroke's first (a loaded machine: seen
                // over 510 ms after it in one CI run): its second is measured from its own arrival.
                try b.waitFor("performance.now() > \(late + 1300)", timeout: 10)
                now = try #require(b.evaluate("performance.now()") as? Double)
                received = try b.receivedFrames(from: before)
            }
            if glide == nil {
                let release = try BrowserRulerGestureTests.released(b)
                try #require(
                    release.velocity == 0,
                    "no track among \(received.count) frames after a release at \(release.velocity) pt/s")
                print("\(room): attempt \(attempt) lifted \(release.liftGap) s after the last move, no fling")
            }
        }
        let arrivals = received.map(\.at)
        let (start, frame, track) = try #require(glide, "three times a placement, no fling")
        // The track moves from its arrival until its end, in page time as the room clock maps it
        // (a frame that came late puts that end up to its lateness earlier: 100 ms spare).
        let end = min(start + (track.end - frame.time) * 1000 - 100, now)
        #expect(end - start >= 800, "measured over \(end - start) ms of a \(track.end - frame.time) s glide")
        let log = try #require(b.evaluate("[paintLog.frames, paintLog.paints.map(p => p.at)]") as? [[Double]])
        let within = { (times: [Double]) in times.filter { $0 > start && $0 <= end }.count }
        let shown = within(log[0]), painted = within(log[1]), came = within(arrivals)
        // Every display frame paints (the page's loop runs after the log's in each) and none twice.
        #expect(painted >= shown - 2 && painted <= shown + 1, "\(painted) paints in \(shown) display frames")
        let seconds = (end - start) / 1000
        let tick = try b.displayTick(from: start, to: end)
        print(
            "\(room): over \(String(format: "%.3f", seconds)) s of the track: \(shown) display frames "
                + "(\(Int((Double(shown) / seconds).rounded()))/s, ticks \(String(format: "%.1f", tick)) ms apart), "
                + "\(painted) paints (\(Int((Double(painted) / seconds).rounded()))/s), \(came) frames received "
                + "(\(Int((Double(came) / seconds).rounded()))/s)")
        return (shown, painted, came, seconds, tick)
    }
}
