import Foundation
import Testing

@testable import ScrollCore

@Suite struct PhysicsDecelerationTests {
    struct Reference: Sendable, CustomTestStringConvertible {
        var rate: Double, v0: Double
        var rest: Double, x05: Double, v05: Double, doneTime: Double
        var testDescription: String { "d=\(rate) v0=\(v0)" }
    }

    // Computed by hand from x∞ = −v0/(1000·ln d), x(t) = v0·(d^(1000t) − 1)/(1000·ln d),
    // v(t) = v0·d^(1000t), and remaining distance 0.5 pt for the done time.
    static let references = [
        Reference(rate: 0.998, v0: 1000, rest: 499.4998, x05: 315.9280, v05: 367.5113, doneTime: 3.44992),
        Reference(rate: 0.998, v0: 5000, rest: 2497.4992, x05: 1579.6401, v05: 1837.5563, doneTime: 4.25384),
        Reference(rate: 0.99, v0: 1000, rest: 99.4992, x05: 98.8454, v05: 6.5705, doneTime: 0.52668),
        Reference(rate: 0.99, v0: 5000, rest: 497.4958, x05: 494.2270, v05: 32.8524, doneTime: 0.68682),
    ]

    @Test(arguments: references)
    func matchesReferenceNumbers(_ r: Reference) {
        let fling = DecelerationSimulation(from: 0, velocity: r.v0, rate: r.rate)
        #expect(abs(fling.finalPosition - r.rest) < 0.001)
        #expect(abs(fling.position(at: 0.5) - r.x05) < 0.001)
        #expect(abs(fling.velocity(at: 0.5) - r.v05) < 0.001)
        #expect(abs(fling.doneTime - r.doneTime) < 0.00001)
    }

    @Test func startsWhereAndHowFastItIsTold() {
        let fling = DecelerationSimulation(from: 120, velocity: -3000, rate: 0.998)
        #expect(fling.position(at: 0) == 120)
        #expect(fling.velocity(at: 0) == -3000)
        #expect(abs(fling.finalPosition - (120 - 1498.4994)) < 0.001)
    }

    @Test func isDoneWhenHalfAPointRemains() {
        let fling = DecelerationSimulation(from: 0, velocity: 1000, rate: 0.998)
        let done = fling.doneTime
        #expect(abs(fling.finalPosition - fling.position(at: done) - 0.5) < 1e-9)
        #expect(!fling.isDone(at: done - 0.001))
        #expect(fling.isDone(at: done))
    }

    @Test func slowFlingIsDoneAtOnce() {
        // 0.8 pt/s at 0.998 travels 0.4 pt in total: below the 0.5 pt rule.
        let fling = DecelerationSimulation(from: 0, velocity: 0.8, rate: 0.998)
        #expect(fling.doneTime == 0)
    }

    @Test func timeReachingIsTheCrossingTime() throws {
        let fling = DecelerationSimulation(from: 900, velocity: 5000, rate: 0.998)
        let t = try #require(fling.time(reaching: 1000))
        #expect(abs(t - 0.0204114) < 1e-7)
        #expect(abs(fling.velocity(at: t) - 4799.7997) < 0.001)
        #expect(fling.time(reaching: 800) == nil)  // behind the start
        #expect(fling.time(reaching: 4000) == nil)  // beyond the rest at 3397.5
    }

    @Test func retargetedFlingLandsExactlyOnTarget() {
        let fling = DecelerationSimulation(from: 0, to: 1230, rate: 0.998)
        // v0 = (target − x0)·(−1000·ln 0.998) = 1230 · 2.0020027
        #expect(abs(fling.initialVelocity - 2462.4633) < 0.001)
        #expect(fling.finalPosition == 1230)
        #expect(abs(fling.position(at: 60) - 1230) < 1e-9)
    }
}
