import Testing
@testable import ScrollCore

@Suite struct PhysicsVelocityTrackerTests {
    /// Client clocks start anywhere; only differences may matter.
    static let epoch = 51_234.567

    /// Samples position(t) every 8 ms for t in 0…`until`.
    func tracker(until: Double, _ position: (Double) -> Double) -> VelocityTracker {
        var tracker = VelocityTracker()
        for t in stride(from: 0.0, through: until + 1e-9, by: 0.008) {
            tracker.add(time: Self.epoch + t, position: position(t))
        }
        return tracker
    }

    @Test func constantSpeed() {
        let tracker = tracker(until: 0.2) { 1000 * $0 }
        #expect(abs(tracker.velocity(liftTime: Self.epoch + 0.2) - 1000) < 1)
    }

    @Test func acceleratingFingerReleasesAtItsInstantaneousSpeed() {
        // x = 2000·t² + 300·t: v(0.096) = 684, while the 100 ms average is 492.
        let tracker = tracker(until: 0.096) { 2000 * $0 * $0 + 300 * $0 }
        #expect(abs(tracker.velocity(liftTime: Self.epoch + 0.096) - 684) < 1)
    }

    @Test func deceleratingFingerReleasesAtItsInstantaneousSpeed() {
        // x = −3000·t² + 1000·t: v(0.096) = 424.
        let tracker = tracker(until: 0.096) { -3000 * $0 * $0 + 1000 * $0 }
        #expect(abs(tracker.velocity(liftTime: Self.epoch + 0.096) - 424) < 1)
    }

    @Test func fingerStoppedBeforeLifting() {
        let tracker = tracker(until: 0.096) { 1000 * $0 }
        #expect(tracker.velocity(liftTime: Self.epoch + 0.156) == 0)
        #expect(abs(tracker.velocity(liftTime: Self.epoch + 0.130) - 1000) < 1)
    }

    @Test func samplesBeforeAGapAreIgnored() {
        var tracker = VelocityTracker()
        // 3000 pt/s, then a 48 ms pause, then 1000 pt/s.
        for t in stride(from: 0.0, through: 0.032, by: 0.008) {
            tracker.add(time: Self.epoch + t, position: 3000 * t)
        }
        for t in [0.080, 0.088, 0.096] {
            tracker.add(time: Self.epoch + t, position: 96 + 1000 * (t - 0.080))
        }
        #expect(abs(tracker.velocity(liftTime: Self.epoch + 0.096) - 1000) < 1)
    }

    @Test func speedIsClamped() {
        #expect(tracker(until: 0.05) { 20_000 * $0 }.velocity(liftTime: Self.epoch + 0.05) == 8000)
        #expect(tracker(until: 0.05) { -20_000 * $0 }.velocity(liftTime: Self.epoch + 0.05) == -8000)
    }

    @Test func slowReleaseIsNoFling() {
        #expect(tracker(until: 0.096) { 40 * $0 }.velocity(liftTime: Self.epoch + 0.096) == 0)
        #expect(abs(tracker(until: 0.096) { 60 * $0 }.velocity(liftTime: Self.epoch + 0.096) - 60) < 0.01)
    }

    @Test func twoSamplesFitALine() {
        var tracker = VelocityTracker()
        tracker.add(time: Self.epoch, position: 0)
        #expect(tracker.velocity(liftTime: Self.epoch) == 0)
        tracker.add(time: Self.epoch + 0.01, position: -5)
        #expect(abs(tracker.velocity(liftTime: Self.epoch + 0.01) - -500) < 1e-6)
    }

    @Test func repeatedTimestampsFallBackToALine() {
        var tracker = VelocityTracker()
        tracker.add(time: Self.epoch, position: 0)
        tracker.add(time: Self.epoch + 0.01, position: 4)
        tracker.add(time: Self.epoch + 0.01, position: 6)
        // Least-squares line through (0, 0), (0.01, 4), (0.01, 6): slope 500.
        #expect(abs(tracker.velocity(liftTime: Self.epoch + 0.01) - 500) < 1e-6)
    }
}
