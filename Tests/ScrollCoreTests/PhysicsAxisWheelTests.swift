import Testing

@testable import ScrollCore

@Suite struct PhysicsAxisWheelTests {
    @Test func wheelMovesAtOnceThenSettlesAfterTheDelay() {
        var axis = ScrollAxis(offset: 0, snap: SnapRule(step: 25))
        axis.scroll(by: 30, time: 1.0)
        #expect(axis.offset(at: 1.0) == 30)
        axis.scroll(by: 10, time: 1.1)
        #expect(axis.offset(at: 1.1) == 40)
        #expect(axis.isMoving)
        #expect(axis.phase == .snapping)
        // The settle waits 0.15 s after the latest event: nothing before 1.25.
        axis.advance(to: 1.24)
        #expect(axis.offset(at: 1.24) == 40)
        #expect(axis.isMoving)
        axis.advance(to: 1.35)
        #expect(axis.phase == .snapping)
        #expect(abs(axis.offset(at: 1.35) - 45) < 1e-9)
        axis.advance(to: 2)
        #expect(axis.offset(at: 2) == 50)
        #expect(axis.phase == .idle)
        #expect(!axis.isMoving)
        #expect(abs(axis.restTime! - 1.45) < 1e-12)
    }

    @Test func wheelWithoutSnapStopsAtOnce() {
        var axis = ScrollAxis(offset: 0)
        axis.scroll(by: -12.5, time: 1)
        #expect(!axis.isMoving)
        #expect(axis.offset(at: 5) == -12.5)
    }

    @Test(arguments: [
        AxisEdges.hard(min: 0, max: 100),
        AxisEdges.rubberBand(min: 0, max: 100, dimension: 960),
    ])
    func wheelIsClampedWithoutRubberBand(edges: AxisEdges) {
        var axis = ScrollAxis(offset: 90, edges: edges)
        axis.scroll(by: 30, time: 0)
        #expect(axis.offset(at: 0) == 100)
        axis.scroll(by: -300, time: 0.1)
        #expect(axis.offset(at: 0.1) == 0)
    }

    @Test func wheelInterruptsAFling() {
        var axis = ScrollAxis(offset: 0)
        let up = axis.fling(pointerSpeed: -1000, at: 0)
        let before = axis.offset(at: up + 0.5)
        axis.scroll(by: 10, time: up + 0.5)
        #expect(axis.phase == .idle)
        #expect(!axis.isMoving)
        #expect(axis.offset(at: up + 2) == before + 10)
    }

    @Test func touchDuringAPendingSettleIsNotACatch() {
        var axis = ScrollAxis(offset: 0, snap: SnapRule(step: 25))
        axis.scroll(by: 30, time: 1.0)
        let caught = axis.touchDown(at: 10, clientTime: 0, time: 1.05)
        #expect(!caught)
        #expect(!axis.isMoving)
        axis.advance(to: 2)
        #expect(axis.phase == .tracking)
        #expect(axis.offset(at: 2) == 30)
    }
}
