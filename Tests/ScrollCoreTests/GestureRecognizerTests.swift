import Testing

@testable import ScrollCore

/// Drives one `PointerGesture` with offsets from its down point and times after its down, on a
/// client clock and at a page position far from 0, so ties must survive rounding.
private struct Finger {
    static let origin = Point(x: 187.3, y: 402.9)
    static let epoch = 51_234.567

    var gesture = PointerGesture(at: origin, time: epoch)

    static func point(_ dx: Double, _ dy: Double) -> Point { Point(x: origin.x + dx, y: origin.y + dy) }

    mutating func move(_ dx: Double, _ dy: Double, after t: Double = 0.05) -> PointerGesture.Recognition? {
        gesture.move(to: Self.point(dx, dy), time: Self.epoch + t)
    }

    mutating func up(_ dx: Double = 0, _ dy: Double = 0, after t: Double = 0.1) -> PointerGesture.Recognition? {
        gesture.up(at: Self.point(dx, dy), time: Self.epoch + t)
    }

    var kind: PointerGesture.Kind { gesture.kind }
}

@Suite struct GestureTapTests {
    @Test func stillPointerIsATap() {
        var f = Finger()
        #expect(f.up(after: 0.12) == .tap(at: Finger.origin))
        #expect(f.kind == .tap)
    }

    @Test func fivePointWobbleIsATap() {
        var f = Finger()
        for (dx, dy) in [(3.0, 4.0), (-4, 3), (0, -5), (5, 0)] {
            #expect(f.move(dx, dy) == nil)
            #expect(f.kind == .undecided)
        }
        #expect(f.up(-3, -4) == .tap(at: Finger.point(-3, -4)))
        #expect(f.kind == .tap)
    }

    @Test("exactly 10 pt away is still within the slop")
    func slopBoundary() {
        var f = Finger()
        for (dx, dy) in [(10.0, 0.0), (-6, 8), (0, -10)] { #expect(f.move(dx, dy) == nil) }
        #expect(f.up(8, -6) == .tap(at: Finger.point(8, -6)))
    }

    @Test("0.3 s is still a tap, 0.31 s is not")
    func timeoutBoundary() {
        var onTime = Finger()
        #expect(onTime.up(after: 0.3) == .tap(at: Finger.origin))
        var late = Finger()
        #expect(late.up(after: 0.31) == nil)
        #expect(late.kind == .none)
    }

    @Test("moving 10.5 pt starts a drag, not a tap")
    func pastTheSlopIsADrag() {
        var f = Finger()
        #expect(f.move(10.5, 0, after: 0.04) == .dragStarted(at: Finger.point(10.5, 0), time: Finger.epoch + 0.04))
        #expect(f.up(10.5, 0) == nil)
        #expect(f.kind == .horizontalDrag)
    }

    @Test("lifting 10.5 pt from the down point is no tap")
    func upPastTheSlop() {
        var f = Finger()
        #expect(f.up(0, 10.5) == nil)
        #expect(f.kind == .none)
    }

    @Test("leaving the slop and coming back is no tap")
    func outAndBack() {
        var drag = Finger()
        #expect(drag.move(11, 0) != nil)
        #expect(drag.move(0, 0) == nil)
        #expect(drag.up() == nil)
        #expect(drag.kind == .horizontalDrag)

        var upward = Finger()
        #expect(upward.move(0, -11) == nil)
        #expect(upward.move(0, 0) == nil)
        #expect(upward.up() == nil)
        #expect(upward.kind == .none)
    }
}

@Suite struct GestureDragTests {
    @Test("the drag starts at the first sample past the slop, not at the down point")
    func locksAtTheFirstSamplePastTheSlop() {
        var f = Finger()
        #expect(f.move(-4, 1, after: 0.016) == nil)
        #expect(f.move(-8, 3, after: 0.032) == nil)  // 73 ≤ 100: within
        // 81 + 25 = 106 > 100: out, and |−9| ≥ |5|.
        #expect(f.move(-9, 5, after: 0.048) == .dragStarted(at: Finger.point(-9, 5), time: Finger.epoch + 0.048))
        #expect(f.kind == .horizontalDrag)
        #expect(f.move(-40, 30, after: 0.064) == nil)
        #expect(f.kind == .horizontalDrag)
    }

    @Test("a 45° diagonal is horizontal, upward or downward")
    func diagonalIsHorizontal() {
        for dy in [8.0, -8.0] {
            var f = Finger()
            #expect(f.move(8, dy) == .dragStarted(at: Finger.point(8, dy), time: Finger.epoch + 0.05))
            #expect(f.kind == .horizontalDrag)
        }
    }

    @Test func downwardMoveIsNothing() {
        var f = Finger()
        #expect(f.move(3, 11) == nil)
        #expect(f.kind == .none)
        #expect(f.move(0, -60) == nil)  // decided: coming back up is no swipe
        #expect(f.move(60, 0) == nil)  // nor a drag
        #expect(f.up() == nil)
        #expect(f.kind == .none)
    }
}

@Suite struct GestureSwipeUpTests {
    @Test("swipe up fires once, at the first sample past 40 pt that is more vertical")
    func firesOnce() {
        var f = Finger()
        #expect(f.move(2, -6) == nil)
        #expect(f.move(3, -12) == nil)  // out of the slop upward: a candidate
        #expect(f.kind == .undecided)
        #expect(f.gesture.isSwipeCandidate)
        #expect(f.move(5, -40) == nil)  // 40 is not over 40
        #expect(f.move(50, -45) == nil)  // over 40, but more horizontal
        #expect(f.move(30, -48) == .swipeUp)
        #expect(f.kind == .swipeUp)
        #expect(!f.gesture.isSwipeCandidate)
        #expect(f.move(0, -80) == nil)
        #expect(f.up(0, -80) == nil)
        #expect(f.kind == .swipeUp)
    }

    @Test("sparse samples: the sample that leaves the slop can be the swipe")
    func onTheLockingSample() {
        var f = Finger()
        #expect(f.move(0, -50) == .swipeUp)
    }

    @Test("a slow drift up that ends at 39 pt is nothing")
    func driftEndingShort() {
        var f = Finger()
        for step in 1...39 { #expect(f.move(0, -Double(step), after: 0.05 * Double(step)) == nil) }
        #expect(f.up(0, -39, after: 2) == nil)
        #expect(f.kind == .none)
    }
}

@Suite struct GestureCancelTests {
    @Test func cancelUndecidedIsNothing() {
        var f = Finger()
        #expect(f.move(2, 2) == nil)
        f.gesture.cancel()
        #expect(f.kind == .none)
        #expect(f.move(0, -60) == nil)
        #expect(f.up() == nil)
        #expect(f.kind == .none)
    }

    @Test func cancelSwipeCandidateIsNothing() {
        var f = Finger()
        #expect(f.move(0, -20) == nil)
        f.gesture.cancel()
        #expect(f.kind == .none)
    }

    @Test func cancelKeepsADecision() {
        var f = Finger()
        #expect(f.move(20, 0) != nil)
        f.gesture.cancel()
        #expect(f.kind == .horizontalDrag)
    }
}

/// Hostile samples (the protocol already refuses non-finite numbers; the core must not rely on it).
@Suite struct GestureHostileInputTests {
    @Test("a NaN coordinate does not move its axis")
    func nanCoordinates() {
        var f = Finger()
        #expect(f.gesture.move(to: Point(x: .nan, y: .nan), time: Finger.epoch + 0.02) == nil)
        #expect(f.gesture.move(to: Point(x: .infinity, y: Finger.origin.y), time: Finger.epoch + 0.03) == nil)
        #expect(f.kind == .undecided)
        let drag = f.gesture.move(to: Point(x: Finger.origin.x + 20, y: .nan), time: Finger.epoch + 0.04)
        #expect(drag == .dragStarted(at: Finger.point(20, 0), time: Finger.epoch + 0.04))
    }

    @Test("a NaN up point is a tap at the down point")
    func nanUp() {
        var f = Finger()
        #expect(f.gesture.up(at: Point(x: .nan, y: .nan), time: Finger.epoch + 0.1) == .tap(at: Finger.origin))
    }

    @Test("a NaN down point never moves: a tap if lifted in time")
    func nanDown() {
        var g = PointerGesture(at: Point(x: .nan, y: .nan), time: 1)
        #expect(g.move(to: Point(x: 500, y: 0), time: 1.1) == nil)
        #expect(g.up(at: Point(x: 500, y: 0), time: 1.2) != nil)
        #expect(g.kind == .tap)
    }

    @Test("a clock that goes backwards counts as no time elapsed")
    func backwardsTime() {
        var f = Finger()
        #expect(f.up(after: -5) == .tap(at: Finger.origin))
    }

    @Test("a NaN up time is no time elapsed, an infinite one is too late")
    func nonFiniteUpTime() {
        var nan = PointerGesture(at: Finger.origin, time: Finger.epoch)
        #expect(nan.up(at: Finger.origin, time: .nan) == .tap(at: Finger.origin))
        var late = PointerGesture(at: Finger.origin, time: Finger.epoch)
        #expect(late.up(at: Finger.origin, time: .infinity) == nil)
        #expect(late.kind == .none)
    }

    @Test("a drag starting on a NaN time reports the last finite time")
    func nanDragTime() {
        var f = Finger()
        #expect(f.move(3, 0, after: 0.05) == nil)
        #expect(
            f.gesture.move(to: Finger.point(20, 0), time: .nan)
                == .dragStarted(
                    at: Finger.point(20, 0), time: Finger.epoch + 0.05))
    }
}
