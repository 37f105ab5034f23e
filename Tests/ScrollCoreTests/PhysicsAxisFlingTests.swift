import Testing

@testable import ScrollCore

@Suite struct PhysicsAxisFlingTests {
    static let projected = SnapRule(step: 25, mode: .projected)
    static let afterRest = SnapRule(step: 25, mode: .afterRest)

    @Test func dragFollowsThePointerAgainstIt() {
        var axis = ScrollAxis(offset: 100)
        axis.touchDown(at: 500, clientTime: 0, time: 0)
        axis.touchMove(to: 470, clientTime: 0.01, time: 0.01)
        #expect(axis.phase == .tracking)
        #expect(axis.offset(at: 0.01) == 130)
        #expect(!axis.isMoving)
    }

    @Test func freeFlingDeceleratesAndStopsOnItsRest() {
        var axis = ScrollAxis(offset: 0)
        let up = axis.fling(pointerSpeed: -1000, at: 0)
        #expect(axis.phase == .decelerating)
        #expect(axis.offset(at: up) == 80)
        // 0.5 s later: 80 + 315.93, at 367.51 pt/s.
        #expect(abs(axis.offset(at: up + 0.5) - 395.928) < 0.01)
        #expect(abs(axis.velocity(at: up + 0.5) - 367.511) < 0.01)
        _ = axis.tick(hz: 60, from: up)
        #expect(axis.phase == .idle)
        #expect(abs(axis.offset(at: 10) - 579.4998) < 0.001)
        #expect(abs(axis.restTime! - (up + 3.44992)) < 0.001)
    }

    @Test func fastRateStopsSooner() {
        var axis = ScrollAxis(offset: 0, rate: .fast)
        axis.fling(pointerSpeed: -1000, at: 0)
        _ = axis.tick(hz: 60, from: 0.08)
        #expect(abs(axis.offset(at: 10) - (80 + 99.4992)) < 0.001)
    }

    @Test(arguments: [projected, afterRest])
    func flingRestsOnTheSameSnapPointAtAnyTickRate(snap: SnapRule) {
        var results: [(offset: Double, restTime: Double, path: [Double])] = []
        for hz in [30.0, 60.0, 240.0] {
            var axis = ScrollAxis(offset: 0, snap: snap)
            let up = axis.fling(pointerSpeed: -1000, at: 0)
            let frames = axis.tick(hz: hz, from: up)
            #expect(axis.phase == .idle)
            // Positions at the frames all three rates share (every 1/30 s).
            let shared = frames.enumerated().filter { $0.offset % Int(hz / 30) == Int(hz / 30) - 1 }
            results.append((axis.offset(at: 100), axis.restTime!, shared.map(\.element.offset)))
        }
        // Free rest 80 + 499.4998 = 579.4998; nearest multiple of 25 is 575.
        for result in results {
            #expect(result.offset == 575)
            #expect(result.restTime == results[0].restTime)
        }
        let common = results.map(\.path.count).min()!
        #expect(common > 90)
        for result in results {
            #expect(Array(result.path.prefix(common)) == Array(results[0].path.prefix(common)))
        }
    }

    @Test func projectedSnapIsRetargetedToLandOnTheStep() {
        var axis = ScrollAxis(offset: 0, snap: Self.projected)
        let up = axis.fling(pointerSpeed: -1000, at: 0)
        // Deceleration retargeted from 80 to 575: v0 = 495·2.0020027.
        #expect(abs(axis.velocity(at: up) - 990.9913) < 0.01)
        #expect(abs(axis.offset(at: up + 0.5) - (80 + 495 * 0.6324887)) < 0.001)
        _ = axis.tick(hz: 60, from: up)
        #expect(axis.offset(at: 100) == 575)
    }

    @Test func afterRestSnapStartsExactlyWhenTheDecelerationIsDone() {
        var axis = ScrollAxis(offset: 0, snap: Self.afterRest)
        let up = axis.fling(pointerSpeed: -1000, at: 0)
        // Free deceleration done 3.44992 s after release at 579.4998, then a
        // 0.2 s ease-in-out to 575, half way at half time.
        let done = up + 3.449923
        axis.advance(to: done + 0.1)
        #expect(axis.phase == .snapping)
        #expect(abs(axis.offset(at: done + 0.1) - 577.2499) < 0.001)
        axis.advance(to: done + 1)
        #expect(axis.phase == .idle)
        #expect(axis.offset(at: done + 1) == 575)
        #expect(abs(axis.restTime! - (done + 0.2)) < 1e-5)
    }

    @Test func releaseWithoutMomentumSettlesOnNearestSnapPoint() {
        var axis = ScrollAxis(offset: 0, snap: Self.projected)
        axis.touchDown(at: 500, clientTime: 0, time: 0)
        axis.touchMove(to: 488, clientTime: 0.05, time: 0.05)
        // Lifted 60 ms after the last move: the finger had stopped.
        axis.touchUp(clientTime: 0.11, time: 0.11)
        #expect(axis.phase == .snapping)
        #expect(abs(axis.offset(at: 0.21) - 6) < 1e-9)
        #expect(abs(axis.offset(at: 0.16) - 12 * (1 - 0.1291619)) < 1e-6)
        axis.advance(to: 0.5)
        #expect(axis.offset(at: 0.5) == 0)
        #expect(abs(axis.restTime! - 0.31) < 1e-12)
    }

    @Test func releaseWithoutMomentumOrSnapGoesIdle() {
        var axis = ScrollAxis(offset: 0)
        axis.touchDown(at: 500, clientTime: 0, time: 0)
        axis.touchMove(to: 488, clientTime: 0.05, time: 0.05)
        axis.touchUp(clientTime: 0.11, time: 0.11)
        #expect(axis.phase == .idle)
        #expect(!axis.isMoving)
        #expect(axis.offset(at: 1) == 12)
    }

    @Test func catchingAFlingHoldsItWhereItIs() {
        var axis = ScrollAxis(offset: 0, snap: Self.projected)
        let tapped = axis.touchDown(at: 500, clientTime: 0, time: 0)
        #expect(!tapped)
        axis.touchCancel(time: 0)
        let up = axis.fling(pointerSpeed: -3000, at: 0)
        axis.advance(to: up + 0.3)
        // The finger lands between two frames.
        let down = up + 0.304
        let inFlight = axis.offset(at: down)
        #expect(inFlight > 240 + 500)
        let caught = axis.touchDown(at: 300, clientTime: physicsClientEpoch + down, time: down)
        #expect(caught)
        #expect(axis.phase == .tracking)
        #expect(axis.offset(at: down) == inFlight)
        axis.advance(to: down + 1.0 / 60)
        #expect(axis.offset(at: down + 1.0 / 60) == inFlight)
        #expect(axis.phase == .tracking)
        #expect(!axis.isMoving)
    }

    @Test func animateEasesInAndOutToTheTarget() {
        var axis = ScrollAxis(offset: 0)
        axis.animate(to: 100, duration: 0.2, time: 1)
        #expect(axis.phase == .snapping)
        #expect(abs(axis.offset(at: 1.05) - 12.91619) < 1e-4)
        #expect(abs(axis.offset(at: 1.1) - 50) < 1e-9)
        axis.advance(to: 1.2)
        #expect(axis.phase == .idle)
        #expect(axis.offset(at: 1.2) == 100)
        #expect(axis.restTime == 1.2)
    }

    @Test func rebaseShiftsEverythingWithoutChangingTheMotion() {
        var moved = ScrollAxis(offset: 0, snap: Self.projected)
        let up = moved.fling(pointerSpeed: -1000, at: 0)
        let reference = moved
        moved.advance(to: up + 0.5)
        moved.rebase(by: -1000)
        for t in stride(from: up + 0.5, through: up + 5, by: 0.25) {
            #expect(abs(moved.offset(at: t) - (reference.offset(at: t) - 1000)) < 1e-9)
        }
        moved.advance(to: up + 10)
        #expect(moved.offset(at: up + 10) == -425)
    }
}
