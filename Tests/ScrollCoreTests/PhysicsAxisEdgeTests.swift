import Testing

@testable import ScrollCore

@Suite struct PhysicsAxisEdgeTests {
    static let hard = AxisEdges.hard(min: 0, max: 1000)
    static let rubber = AxisEdges.rubberBand(min: 0, max: 1000, dimension: 960)

    /// Starts at 500 and flings forwards at 5000 pt/s: 900 at release.
    func flingTowardsMax(_ edges: AxisEdges, snap: SnapRule? = nil) -> (ScrollAxis, up: Double) {
        var axis = ScrollAxis(offset: 500, edges: edges, snap: snap)
        let up = axis.fling(pointerSpeed: -5000, at: 0)
        return (axis, up)
    }

    @Test func hardEdgeNeverOvershootsAndStopsOnIt() {
        var (axis, up) = flingTowardsMax(Self.hard)
        #expect(axis.offset(at: up) == 900)
        for ms in 0...2000 {
            let t = up + Double(ms) / 1000
            axis.advance(to: t)
            let x = axis.offset(at: t)
            #expect(x >= 0 && x <= 1000)
        }
        #expect(axis.phase == .idle)
        #expect(axis.offset(at: up + 3) == 1000)
        // It stops when it reaches the edge: 100 pt at 5000 pt/s, d = 0.998.
        #expect(abs(axis.restTime! - (up + 0.0204114)) < 1e-6)
    }

    @Test func hardEdgeClampsTheDragWithoutADeadZone() {
        var axis = ScrollAxis(offset: 1000, edges: Self.hard)
        axis.touchDown(at: 500, clientTime: 0, time: 0)
        axis.touchMove(to: 400, clientTime: 0.01, time: 0.01)
        #expect(axis.offset(at: 0.01) == 1000)
        axis.touchMove(to: 450, clientTime: 0.02, time: 0.02)
        #expect(axis.offset(at: 0.02) == 950)
    }

    @Test func rubberBandFlingOvershootsThenReturnsExactlyToTheEdge() {
        var (axis, up) = flingTowardsMax(Self.rubber)
        let crossing = up + 0.0204114
        // The spring takes over with the fling's velocity at the crossing.
        #expect(abs(axis.velocity(at: crossing - 1e-7) - 4799.80) < 0.01)
        #expect(abs(axis.velocity(at: crossing + 1e-7) - 4799.80) < 0.01)
        var peak = 0.0
        for ms in 0...3000 {
            let t = up + Double(ms) / 1000
            axis.advance(to: t)
            peak = max(peak, axis.offset(at: t))
        }
        // Critically damped from the edge at v: peak v/(ω·e) = 176.57 pt.
        #expect(abs(peak - 1176.57) < 0.05)
        #expect(axis.phase == .idle)
        #expect(axis.offset(at: up + 4) == 1000)
    }

    @Test func bouncePhaseFollowsTheCrossing() {
        var (axis, up) = flingTowardsMax(Self.rubber)
        axis.advance(to: up + 0.01)
        #expect(axis.phase == .decelerating)
        axis.advance(to: up + 0.05)
        #expect(axis.phase == .bouncing)
        #expect(axis.isMoving)
    }

    @Test func dragPastTheEdgeShowsTheRubberBand() {
        var axis = ScrollAxis(offset: 1000, edges: Self.rubber)
        axis.touchDown(at: 500, clientTime: 0, time: 0)
        axis.touchMove(to: 400, clientTime: 0.01, time: 0.01)
        #expect(abs(axis.offset(at: 0.01) - 1052.02) < 0.01)
        axis.touchMove(to: 100, clientTime: 0.02, time: 0.02)
        #expect(abs(axis.offset(at: 0.02) - 1178.98) < 0.01)
        axis.touchMove(to: 1900, clientTime: 0.03, time: 0.03)
        #expect(abs(axis.offset(at: 0.03) - -178.98) < 0.01)
        axis.touchMove(to: 1350, clientTime: 0.04, time: 0.04)
        #expect(axis.offset(at: 0.04) == 150)
    }

    @Test func releasedPastTheEdgeSpringsBackExactly() {
        var axis = ScrollAxis(offset: 1000, edges: Self.rubber)
        axis.touchDown(at: 500, clientTime: 0, time: 0)
        axis.touchMove(to: 400, clientTime: 0.01, time: 0.01)
        axis.touchUp(clientTime: 0.08, time: 0.08)
        #expect(axis.phase == .bouncing)
        // Critically damped from 52.02 pt out, at rest: (1 + 10t)·e^(−10t) of it.
        #expect(abs(axis.offset(at: 0.18) - (1000 + 52.0197 * 0.735759)) < 0.001)
        axis.advance(to: 3)
        #expect(axis.phase == .idle)
        #expect(axis.offset(at: 3) == 1000)
    }

    @Test func catchingABounceKeepsTheOvershootOnScreen() {
        var (axis, up) = flingTowardsMax(Self.rubber)
        let t = up + 0.1
        axis.advance(to: t)
        let shown = axis.offset(at: t)
        #expect(shown > 1100)
        let caught = axis.touchDown(at: 300, clientTime: physicsClientEpoch + t, time: t)
        #expect(caught)
        #expect(axis.offset(at: t) == shown)
        // Dragging on resumes along the band from the same finger overshoot.
        let finger = RubberBand.overshoot(forOffset: shown - 1000, dimension: 960)
        axis.touchMove(to: 250, clientTime: physicsClientEpoch + t + 0.01, time: t + 0.01)
        let expected = 1000 + RubberBand.offset(forOvershoot: finger + 50, dimension: 960)
        #expect(abs(axis.offset(at: t + 0.01) - expected) < 1e-9)
    }

    @Test func projectedSnapTargetIsKeptInsideTheEdges() {
        var (axis, up) = flingTowardsMax(Self.rubber, snap: SnapRule(step: 30))
        // Projection 900 + 2497.5 is far out; the last snap point inside is 990.
        axis.advance(to: up + 10)
        #expect(axis.offset(at: up + 10) == 990)
        var peak = 0.0
        var (again, _) = flingTowardsMax(Self.rubber, snap: SnapRule(step: 30))
        for ms in 0...3000 {
            let t = up + Double(ms) / 1000
            again.advance(to: t)
            peak = max(peak, again.offset(at: t))
        }
        #expect(peak == 990)
    }

    @Test func afterRestBounceEndsOnASnapPointInside() {
        var (axis, up) = flingTowardsMax(Self.rubber, snap: SnapRule(step: 30, mode: .afterRest))
        axis.advance(to: up + 0.05)
        #expect(axis.phase == .bouncing)
        axis.advance(to: up + 10)
        #expect(axis.offset(at: up + 10) == 990)
    }
}
