import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// The demo ruler's glide as pages show it (docs/PROTOCOL.md, "Tracks"): a finger catching it
/// mid-glide, and a second page in the room watching it. The ruler is flung as BrowserTrackTests
/// does (`BrowserTrackTests.fling`); what a page received is decoded with DecodedFrame, and what it
/// painted of the ruler's layer comes from PaintLog (`logPaints(layer:)`).
///
/// Figures (WIDGETS.md §1): ticks 10 pt apart, 0.1 kg each; label L marks tick 10·L; at rest on
/// v kg, tick 10·v is under the centre pointer (x 195), so label L is painted at
/// x = 195 + 100·(L − v). The labels' places, not the layer's offset, say where the ruler is
/// shown: a catch draws the ruler again around where the finger came down (a new origin,
/// WeightRuler.drawn), so the offset's number may change by a multiple of 200 pt while the
/// ticks stay put.
@Suite(.serialized) struct BrowserGlideTests {
    static let value = BrowserRulerTests.value
    static let finals = BrowserRulerGestureTests.finals
    static let layer = PaintedLayer(
        id: BrowserTrackTests.rulerLayer, texts: DemoScene.rulerFrame, sceneWidth: DemoScene.size.width)
    static let centre = DemoScene.rulerFrame.midX

    /// A fresh page in `room`, logging its paints of the ruler and keeping every frame it receives.
    func open(_ server: ServerProcess, room: String) throws -> Chromium {
        let b = try Chromium()
        try b.logPaints(keepFrames: true, layer: Self.layer)
        try b.loadObserved(server.httpURL + "?room=\(room)", ready: "\(Self.value) > 0")
        return b
    }

    /// How far the ruler's labels were painted from where `other` painted them (pt, + to the right):
    /// the first label the two paints share.
    func shift(from other: LoggedPaint, to paint: LoggedPaint) -> Double? {
        for label in labels(other) {
            if let same = labels(paint).first(where: { $0.text == label.text }) { return same.x - label.x }
        }
        return nil
    }

    /// The ruler's labels in a paint (17 pt), not the readout's digit strips (56 pt, clipped to
    /// the readout but drawn across the ruler's rows).
    func labels(_ paint: LoggedPaint) -> [(text: String, x: Double, y: Double, size: Double)] {
        paint.texts.filter { $0.size < 30 }
    }

    /// Where `paint` shows labels away from a ruler resting on `value` kg (pt, the largest): 0 when
    /// it shows that value. Nil when it painted no label.
    func missing(_ value: Double, in paint: LoggedPaint) -> Double? {
        labels(paint).compactMap { label in
            Double(label.text).map { abs(label.x - (Self.centre + 100 * ($0 - value))) }
        }.max()
    }

    /// The track's speed (pt/s) at room time `time`, by its offset 0.5 ms either side.
    func speed(_ track: Track, at time: Double) -> Double {
        abs(track.offset(at: time + 0.0005).x - track.offset(at: time - 0.0005).x) / 0.001
    }

    /// Waits until the page shows the ruler's `count`-th final value at rest: the slider says it,
    /// and a paint after the newest frame shows the ruler's layer still (off any track, or at the
    /// end of its last: a glide that rests where its track ends gets no new offset). Returns the value.
    func rest(_ b: Chromium, finals count: Int) throws -> Double {
        try b.waitFor("\(Self.finals).length >= \(count)", timeout: 10)
        let value = try #require(b.evaluate("\(Self.finals)[\(count - 1)].value") as? Double)
        try b.waitFor(
            """
            \(Self.value) === \(value) && (() => { const p = paintLog.paints.at(-1);
              return p.still === true && p.at > paintLog.binaries.at(-1).at; })()
            """, timeout: 5)
        return value
    }

    @Test(
        "a finger catching the glide: one track, then a fixed offset; the page holds the glide at the down, so the catch moves it less than a display frame of glide; a tick at rest"
    )
    func caughtMidGlide() throws {
        let server = try ServerProcess()
        let b = try open(server, room: "glide-catch")
        defer { b.close() }
        let start = try #require(b.evaluate(Self.value) as? Double)
        try BrowserRulerGestureTests.recordSent(b)
        let received = { try #require(b.evaluate("paintLog.binaries.length") as? Int) }
        let before = try received()
        try b.perform(BrowserTrackTests.fling)
        // The finger leaves it 1.5 kg on; the glide goes some 7.8 kg further (780 pt). Caught once
        // it has gone 3 kg of them (about 0.25 s in, near 1,000 pt/s), well before its end.
        try b.waitFor("\(Self.value) >= \(start + 1.5 + 3)", timeout: 10)
        let caughtFrom = try received()
        let catchX = 200.0, y = BrowserRulerGestureTests.y
        try b.perform(Gesture(.touch).then(.down, x: catchX, y: y, at: 0))
        // Held still: until the page has painted the ruler off its track, and ten display frames more.
        try b.waitFor(
            """
            (() => { const since = paintLog.binaries[\(caughtFrom - 1)].at;
              const held = paintLog.paints.find(p => p.at > since && p.track === false);
              return held !== undefined && paintLog.frames.filter(f => f > held.at).length >= 10; })()
            """, timeout: 5)
        let liftFrom = try received()
        try b.perform(.release(.touch, x: catchX, y: y, after: 0))
        let value = try rest(b, finals: 1)

        // (a) The frames: from the release one track, kept until the catch; the catch gives the
        // layer a fixed offset, and no track comes while the finger holds it.
        let frames = try b.receivedFrames(from: before)
        let ruler = frames.map { $0.frame.layers.first { $0.id == Self.layer.id } }
        let caughtAt = caughtFrom - before, liftedAt = liftFrom - before
        let glide = try #require(ruler.firstIndex { $0?.track != nil }, "no track for the ruler")
        let track = try #require(ruler[glide]?.track)
        #expect(glide < caughtAt, "the track came after the catch")
        let caught = try #require(
            ruler.indices.first {
                $0 > glide && ruler[$0].map { $0.ops != nil || $0.offset != nil || $0.track != nil } == true
            },
            "nothing after the track")
        let (arrival, catchFrame) = frames[caught]
        #expect(
            caught >= caughtAt,
            "the glide changed before the catch: \(ruler[caught].map(String.init(describing:)) ?? "")")
        #expect(ruler[caught]?.track == nil && ruler[caught]?.offset != nil, "the catch: a fixed offset")
        #expect(ruler[..<caught].filter { $0?.track != nil }.count == 1, "one track for the glide")
        #expect(ruler[caught..<liftedAt].allSatisfy { $0?.track == nil }, "a track while held")
        try #require(
            catchFrame.time < track.end, "caught at \(catchFrame.time) s, the glide had ended at \(track.end) s")

        // (b) The paints either side of the catch's arrival. At the finger's down the page held the
        // glide where its room clock had it (docs/PROTOCOL.md, "A catch": the ruler's semantics say
        // a down there catches its layer), and the server stopped it where its glide was when the
        // down came. So the ruler is seen to move by the glide between those two times, within the
        // track's fit (0.2 pt) and float32 (0.05 pt): the page sends the down as it holds the
        // glide, and the server catches as the down arrives, so the two are apart by the room
        // clock's lag behind the server (the quickest one-way delay) and the loopback: within one
        // display frame of glide at its speed then. Without the hold the page played the glide on
        // until the answer came, and in Chromium that is late: a touchstart holds the page's
        // WebSocket messages back about 100 ms (its scheduler's touchstart mode; a mouse down does
        // not): the ruler jumped back 52–76 pt at a catch.
        let paints = try b.loggedPaints()
        let last = try #require(paints.last { $0.at < arrival }, "no paint before the catch")
        let next = try #require(paints.first { $0.at > arrival }, "no paint after the catch")
        let shownAt = try #require(last.time), painted = try #require(last.offset)
        #expect(last.onTrack == true && next.onTrack == false, "painted \(last) then \(next)")
        #expect(abs(painted.x - track.offset(at: shownAt).x) <= 0.01, "the page played the track as Track.swift")
        let jump = try #require(shift(from: last, to: next), "no label painted both sides of the catch")
        let glided = track.offset(at: catchFrame.time).x - track.offset(at: shownAt).x
        #expect(abs(jump - glided) <= 0.25, "the ruler moved \(jump) pt at the catch; the glide \(glided) pt")
        let lead = frames.filter { $0.at <= arrival }.map { $0.frame.time * 1000 - $0.at }.max() ?? 0
        let late = lead - (catchFrame.time * 1000 - arrival)
        let frames60 = try #require(b.evaluate("paintLog.frames") as? [Double])
        let displayFrame = zip(frames60.dropFirst(), frames60).map { $0 - $1 }.sorted()[frames60.count / 2]
        let speedThen = speed(track, at: min(shownAt, catchFrame.time))
        let bound = speedThen * displayFrame / 1000 + 0.25
        #expect(abs(jump) <= bound, "a jump of \(jump) pt at \(speedThen) pt/s (bound \(bound) pt)")
        // Where the page showed it when the finger came down (its `t`: the page's clock), to where it stopped.
        let down = try #require(
            b.evaluate("sent.filter(m => m.type === 'pointer' && m.phase === 'down').at(-1).t") as? Double)
        let atDown = try #require(paints.last { $0.at <= down }, "no paint before the finger came down")
        let fromDown = try #require(shift(from: atDown, to: next))
        print(
            String(
                format:
                    "caughtMidGlide: caught at %.0f pt/s, %.3f s into a %.3f s glide; at the catch's frame the ruler "
                    + "moved %.2f pt (the page held the glide %.1f ms before the server caught it; display frame %.1f "
                    + "ms; the catch's frame %.1f ms later than the fastest: bound %.2f pt); it stopped %.2f pt from "
                    + "where it was shown at the finger's down",
                speed(track, at: catchFrame.time), catchFrame.time - track.start, track.end - track.start, jump,
                (catchFrame.time - shownAt) * 1000, displayFrame, late, bound, fromDown))

        // Held still, it stays where it was caught, in every paint to the lift.
        let held = paints.filter { $0.at > arrival && $0.at < frames[min(liftedAt, frames.count - 1)].at }
        let moved = held.compactMap { shift(from: next, to: $0) }.map(abs).max() ?? .infinity
        #expect(moved <= 0.01, "held still, the ruler moved \(moved) pt over \(held.count) paints")

        // (c) Lifted, it rests on a tick, the final value the server reports, painted there.
        #expect(BrowserRulerGestureTests().onTick(value), "\(value) is on a 0.1 tick")
        #expect(try b.evaluate("\(Self.finals).length") as? Int == 1, "one final value")
        let atRest = try #require(paints.last)
        #expect(try #require(missing(value, in: atRest)) <= 0.01, "resting on \(value) kg, painted \(atRest.texts)")
    }

    @Test("a watcher in the room plays the driver's track, the same knots, and rests where the driver does")
    func watchedGlide() throws {
        let server = try ServerProcess()
        let driver = try open(server, room: "glide-watch")
        defer { driver.close() }
        let watcher = try open(server, room: "glide-watch")
        defer { watcher.close() }
        let pages = [driver, watcher]
        let before = try pages.map { try #require($0.evaluate("paintLog.binaries.length") as? Int) }
        try driver.perform(BrowserTrackTests.fling)
        let values = try pages.map { try rest($0, finals: 1) }
        #expect(values[0] == values[1], "the driver rests on \(values[0]) kg, the watcher on \(values[1])")
        #expect(BrowserRulerGestureTests().onTick(values[0]), "\(values[0]) is on a 0.1 tick")
        // The semantics at rest came as patches (docs/PROTOCOL.md, `semantics`), merged by each page:
        // the ruler's slider and the readout's text (semantics alone set it) read the final value.
        let text = WeightRuler.format.text(Int((values[0] * 10).rounded()))
        for b in pages {
            try b.waitFor(
                """
                (() => { const el = (id) => document.querySelector(`[data-widget=${id}]`);
                  return el('ruler').getAttribute('aria-valuenow') === '\(JSONValue.format(values[0]))'
                    && el('ruler').getAttribute('aria-valuetext') === '\(text)' && el('readout').textContent === '\(text)'; })()
                """, timeout: 5)
        }

        // Each received one track for the ruler: the same, knot for knot (float32 as on the wire),
        // with the same drawing.
        var glides: [DecodedFrame.Layer] = []
        for (b, first) in zip(pages, before) {
            let tracks = try b.receivedFrames(from: first).compactMap { received in
                received.frame.layers.first { $0.id == Self.layer.id && $0.track != nil }
            }
            #expect(tracks.count == 1, "\(tracks.count) tracks for one glide")
            glides.append(try #require(tracks.first))
        }
        let (driven, watched) = (try #require(glides[0].track), try #require(glides[1].track))
        #expect(watched == driven, "the watcher's track \(watched), the driver's \(driven)")
        #expect(glides[1].ops == glides[0].ops, "the track's drawing differs")

        // At rest, both paint the ruler's layer at the same offset, with its labels where the value says.
        let atRest = try pages.map { try #require($0.loggedPaints().last) }
        let offsets = try atRest.map { try #require($0.offset) }
        #expect(
            abs(offsets[1].x - offsets[0].x) <= 0.01,
            "at rest: the watcher at \(offsets[1]), the driver at \(offsets[0])")
        for paint in atRest {
            #expect(try #require(missing(values[0], in: paint)) <= 0.01, "resting on \(values[0]) kg: \(paint.texts)")
        }
        print(
            "watchedGlide: one track of \(driven.knots.count) knots, \(String(format: "%.3f", driven.end - driven.start)) s, "
                + "on both pages; both rest on \(values[0]) kg at offset \(offsets[0].x) / \(offsets[1].x) pt")
    }
}
