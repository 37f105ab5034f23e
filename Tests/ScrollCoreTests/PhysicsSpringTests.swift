import Foundation
import Testing

@testable import ScrollCore

@Suite struct PhysicsSpringTests {
    @Test func defaultSpringIsCriticallyDamped() {
        let spring = SpringDescription()
        #expect(spring.mass == 1)
        #expect(spring.stiffness == 100)
        #expect(spring.damping == 20)
    }

    // Critical, ω = 10: y = (100 + 1000·t)·e^(−10t).
    @Test func criticallyDampedMatchesClosedForm() {
        let spring = SpringSimulation(from: 100, velocity: 0, to: 0)
        #expect(abs(spring.position(at: 0.1) - 73.5759) < 0.0001)
        #expect(abs(spring.position(at: 0.2) - 40.6006) < 0.0001)
        #expect(abs(spring.position(at: 0.5) - 4.0428) < 0.0001)
        // Released at rest, it never crosses the target.
        for ms in 0...2000 {
            #expect(spring.position(at: Double(ms) / 1000) >= 0)
        }
    }

    // k = 100, c = 10: α = 5, ω = sqrt(75).
    @Test func underDampedOvershoots() {
        let spring = SpringSimulation(from: 100, velocity: 0, to: 0, spring: SpringDescription(damping: 10))
        #expect(abs(spring.position(at: 0.1) - 65.9700) < 0.0001)
        #expect(abs(spring.position(at: 0.3) - -12.4355) < 0.0001)
        #expect(abs(spring.position(at: 0.5) - -7.4591) < 0.0001)
    }

    // k = 100, c = 30: roots −15 ± sqrt(125).
    @Test func overDampedCreepsIn() {
        let spring = SpringSimulation(from: 100, velocity: 0, to: 0, spring: SpringDescription(damping: 30))
        #expect(abs(spring.position(at: 0.1) - 78.6646) < 0.0001)
        #expect(abs(spring.position(at: 0.3) - 37.2182) < 0.0001)
        #expect(abs(spring.position(at: 0.5) - 17.3405) < 0.0001)
    }

    @Test(arguments: [10.0, 20.0, 30.0])
    func velocityIsTheDerivativeOfPosition(damping: Double) {
        let spring = SpringSimulation(from: 40, velocity: 900, to: 10, spring: SpringDescription(damping: damping))
        #expect(abs(spring.position(at: 0) - 40) < 1e-9)
        #expect(abs(spring.velocity(at: 0) - 900) < 1e-9)
        let h = 1e-6
        for t in stride(from: 0.05, through: 1.0, by: 0.05) {
            let slope = (spring.position(at: t + h) - spring.position(at: t - h)) / (2 * h)
            #expect(abs(spring.velocity(at: t) - slope) < 1e-3)
        }
    }

    @Test(arguments: [10.0, 20.0, 30.0])
    func doneWithinTenthOfAPointAndOnePointPerSecond(damping: Double) {
        let spring = SpringSimulation(from: 1000, velocity: 4800, to: 1000, spring: SpringDescription(damping: damping))
        let done = spring.doneTime
        #expect(done > 0.3)
        #expect(abs(spring.position(at: done) - 1000) <= 0.1)
        #expect(abs(spring.velocity(at: done)) <= 1)
        #expect(!spring.isDone(at: done - 0.001))
        #expect(spring.isDone(at: done))
        #expect(spring.finalPosition == 1000)
    }

    @Test func startingAtRestOnTargetIsDoneAtOnce() {
        #expect(SpringSimulation(from: 5, velocity: 0, to: 5).doneTime == 0)
    }
}
