import Testing

@testable import ScrollCore

/// `Track.Keyframes`: eased moves in order become keyframes whose times never go back, whatever
/// rounding put between the end of one move and the start of the next (docs/PROTOCOL.md,
/// "Tracks": an eased track's knot times never decrease).
@Suite struct TrackKeyframesTests {
    @Test("a move starting a rounding before the last ends (all-moving's frame 39,453): times never go back")
    func roundingBeforeTheEnd() throws {
        // A roller's column after ~650 random rolls: a turn that ends at …654, then an ease of no
        // length that the clock's sums start and end at …652, 2e-13 before; far out, so kept in float64.
        var frames = Track.Keyframes()
        let end = 661.2942778475654, early = 661.2942778475652
        let moved1 = frames.move(
            from: Point(x: 0, y: 1_907_098_400), at: 656.4942792570359, to: .zero, at: end, curve: .linear)
        #expect(moved1)
        let moved2 = frames.move(from: .zero, at: early, to: .zero, at: early, curve: .easeOut)
        #expect(moved2)
        let times = frames.frames.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
        #expect(times.last == end)
        // The track they make (which checks the same of its knots) is made, and rests at the end.
        let track = try #require(Track(axes: .y, keyframes: frames.frames))
        #expect(zip(track.knots, track.knots.dropFirst()).allSatisfy { $0.t <= $1.t })
        #expect(track.offset(at: end + 1) == .zero)
    }

    @Test("keyframes that go back in time make no track (the motion is fitted instead), never a crash")
    func backwardsNoTrack() {
        let back = [
            Track.Keyframe(time: 1, offset: .zero), Track.Keyframe(time: 2, offset: Point(x: 0, y: 5e9)),
            Track.Keyframe(time: 1.5, offset: .zero, curve: .easeOut),
        ]
        #expect(Track(axes: .y, keyframes: back) == nil)
    }

    @Test("a move starting more than the slack before the last ends is refused, and adds nothing")
    func overlapRefused() {
        var frames = Track.Keyframes()
        let moved3 = frames.move(from: .zero, at: 1, to: Point(x: 0, y: 10), at: 2, curve: .linear)
        #expect(moved3)
        let moved4 = frames.move(from: Point(x: 0, y: 10), at: 1.5, to: .zero, at: 3, curve: .easeOut)
        #expect(!moved4)
        #expect(frames.frames.map(\.time) == [1, 2])
    }

    @Test("a move starting later holds until then, and jumps where it starts elsewhere")
    func holdThenMove() {
        var frames = Track.Keyframes()
        let moved5 = frames.move(from: .zero, at: 1, to: Point(x: 0, y: 10), at: 2, curve: .linear)
        #expect(moved5)
        let moved6 = frames.move(from: Point(x: 0, y: 20), at: 3, to: Point(x: 0, y: 30), at: 4, curve: .easeOut)
        #expect(moved6)
        #expect(frames.frames.map(\.time) == [1, 2, 3, 3, 4])
        #expect(frames.frames.map(\.offset.y) == [0, 10, 10, 20, 30])
    }
}
