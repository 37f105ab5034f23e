import Testing

@testable import ScrollCore

/// Tracks fitted to the core's own simulations stay within 0.25 pt of them (the spec's bound
/// for what the page shows) at every millisecond, from the input to the rest and past it.
struct TrackFitterTests {
    static let bound = 0.25

    /// The fitted track of `axis`'s path from `time` and the largest distance from the axis,
    /// checked every millisecond until 0.1 s after the rest.
    static func fit(_ axis: ScrollAxis, from time: Double) throws -> (track: Track, worst: Double, end: Double) {
        let path = try #require(axis.plannedPath(from: time))
        let track = try #require(
            TrackFitter.fit(from: time, to: path.end, breaks: path.breaks) { Point(x: axis.offset(at: $0), y: 0) })
        var worst = 0.0
        var t = time
        while t <= path.end + 0.1 {
            worst = max(worst, abs(track.offset(at: t).x - axis.offset(at: t)))
            // The path's own offsets (what the scene fits to) are the axis's, exactly.
            #expect(path.offset(at: t) == axis.offset(at: t), "at \(t)")
            t += 0.001
        }
        return (track, worst, path.end)
    }

    static func bytes(_ track: Track) -> Int {
        var b: [UInt8] = []
        FrameEncoder.appendTrack(&b, track)
        return b.count
    }

    @Test(
        "ruler flings of 100…8,000 pt/s (projected snap, no edges): within 0.25 pt every ms, ending on the snap point",
        arguments: [100.0, 500, 2000, 4000, 8000, -2000])
    func rulerFlings(speed: Double) throws {
        var axis = ScrollAxis(offset: 0, snap: SnapRule(step: 10, mode: .projected, settleDuration: 0.2))
        let lift = axis.fling(pointerSpeed: -speed, at: 1)
        let (track, worst, end) = try Self.fit(axis, from: lift)
        #expect(worst <= Self.bound, "\(speed) pt/s: \(worst) pt off")
        let rest = axis.offset(at: end + 1)
        #expect(rest.remainder(dividingBy: 10) == 0 && track.offset(at: end + 1).x == rest)
        #expect(abs(track.end - end) < 1e-5)
        // A 2,000 pt/s fling travels ~1,000 pt in ~3 s: a few hundred bytes, not 60 offsets a second.
        #expect(Self.bytes(track) <= 400, "\(speed) pt/s: \(track.knots.count) knots, \(Self.bytes(track)) B")
    }

    @Test(
        "a fling past a rubber-band edge: the fling, the corner at the edge, the spring back",
        arguments: [2000.0, 8000])
    func bounce(speed: Double) throws {
        var axis = ScrollAxis(offset: 0, edges: .rubberBand(min: 0, max: 1000, dimension: 400))
        let lift = axis.fling(pointerSpeed: -speed, at: 0.5)
        let path = try #require(axis.plannedPath(from: lift))
        #expect(!path.breaks.isEmpty, "the fling hands over to a spring")
        let (track, worst, end) = try Self.fit(axis, from: lift)
        #expect(worst <= Self.bound, "\(speed) pt/s: \(worst) pt off")
        #expect(track.offset(at: end + 0.001).x == 1000)
    }

    @Test("a fling into a hard edge (the picker's): it stops there and settles")
    func hardEdge() throws {
        var axis = ScrollAxis(
            offset: 500, edges: .hard(min: 0, max: 1000),
            snap: SnapRule(step: 10, mode: .projected, settleDuration: 0.2))
        let lift = axis.fling(pointerSpeed: -4000, at: 0)
        let (track, worst, end) = try Self.fit(axis, from: lift)
        #expect(worst <= Self.bound)
        #expect(track.offset(at: end + 0.001).x == 1000)
    }

    @Test("a key step (0.2 s ease), a wheel's settle after 0.15 s, a drag let go without momentum")
    func snaps() throws {
        var key = ScrollAxis(offset: 0, snap: SnapRule(step: 10, mode: .projected, settleDuration: 0.2))
        key.animate(to: 100, duration: 0.2, time: 2)
        let step = try Self.fit(key, from: 2)
        #expect(step.worst <= Self.bound && step.end == 2.2 && step.track.offset(at: 2.201).x == 100)

        var wheel = ScrollAxis(offset: 0, snap: SnapRule(step: 10, mode: .projected, settleDuration: 0.2))
        wheel.scroll(by: 37, time: 3)
        let settle = try Self.fit(wheel, from: 3)
        #expect(settle.worst <= Self.bound && abs(settle.end - 3.35) < 1e-9)
        #expect(abs(settle.track.offset(at: 3.1).x - 37) < 1e-9 && settle.track.offset(at: 3.4).x == 40)

        var drag = ScrollAxis(offset: 0, snap: SnapRule(step: 10, mode: .projected, settleDuration: 0.2))
        drag.touchDown(at: 100, clientTime: 0, time: 0)
        drag.touchMove(to: 96, clientTime: 0.5, time: 0.5)
        drag.touchUp(clientTime: 0.6, time: 0.6)
        let letGo = try Self.fit(drag, from: 0.6)
        #expect(letGo.worst <= Self.bound && letGo.track.offset(at: 1).x == 0)
    }

    @Test("an ease's path as keyframes: from its start, exact; none for a fling, nor where a hard edge clamps the ease")
    func easedKeyframes() throws {
        var axis = ScrollAxis(offset: 0)
        axis.animate(to: 100, duration: 0.3, time: 1)
        let eased = try #require(axis.plannedPath(from: 1.1)?.keyframes)
        #expect(eased.map(\.time) == [1, 1.3] && eased.map(\.offset.x) == [0, 100])
        #expect(eased.map(\.curve) == [.linear, .easeInOut])
        // A fling is not an ease.
        var fling = ScrollAxis(offset: 0)
        fling.touchDown(at: 300, clientTime: 0, time: 0)
        fling.touchMove(to: 280, clientTime: 0.01, time: 0.01)
        fling.touchUp(clientTime: 0.01, time: 0.01)
        #expect(try #require(fling.plannedPath(from: 0.01)).keyframes == nil)
        // Past a hard edge the ease is clamped: not its curve.
        var edged = ScrollAxis(offset: 0, edges: .hard(min: 0, max: 50))
        edged.animate(to: 100, duration: 0.3, time: 1)
        #expect(try #require(edged.plannedPath(from: 1)).keyframes == nil)
    }

    @Test("no path while a finger holds the axis or at rest; a motion needing too many knots gets no track")
    func noTrack() {
        var axis = ScrollAxis(offset: 0)
        #expect(axis.plannedPath(from: 0) == nil)
        axis.touchDown(at: 0, clientTime: 0, time: 0)
        #expect(axis.plannedPath(from: 0) == nil)
        // A curve no cubic follows: a square wave at 200 Hz.
        let wave = TrackFitter.fit(from: 0, to: 2) { t in
            Point(x: (t * 400).rounded(.down).truncatingRemainder(dividingBy: 2) * 100, y: 0)
        }
        #expect(wave == nil)
    }
}
