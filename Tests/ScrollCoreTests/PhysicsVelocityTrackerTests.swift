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

/// Hostile timestamps come straight from clients: they must give a velocity, never NaN,
/// and never grow the tracker.
@Suite struct VelocityTrackerHostileInputTests {
    @Test("a time spread that underflows gives no fling, not NaN")
    func underflowingSpread() {
        var t = VelocityTracker()
        t.add(time: 0, position: 300)
        t.add(time: 1e-300, position: 300)
        #expect(t.velocity(liftTime: 1e-300) == 0)
        t.add(time: 2e-300, position: 250)
        #expect(t.velocity(liftTime: 2e-300).isFinite)
    }

    @Test("a repeated timestamp keeps at most maxSamples samples")
    func repeatedTimestamp() {
        var t = VelocityTracker()
        for i in 0..<10_000 { t.add(time: 5, position: Double(i)) }
        #expect(t.sampleCount <= VelocityTracker.maxSamples)
        #expect(t.velocity(liftTime: 5) == 0)
    }

    @Test("a clock that jumps back starts a new window")
    func clockJumpsBack() {
        var t = VelocityTracker()
        for i in 0..<10 { t.add(time: 10 + 0.008 * Double(i), position: 8 * Double(i)) }
        for i in 0..<5 { t.add(time: 1 + 0.008 * Double(i), position: -4 * Double(i)) }
        // Only the post-jump samples count: −4 pt per 8 ms = −500 pt/s.
        #expect(abs(t.velocity(liftTime: 1.032) + 500) < 1e-6)
    }

    @Test("a ruler released with degenerate timestamps revises and reports, it does not crash")
    func rulerSurvives() {
        var d = RulerDriver(value: 72.5)
        d.send(.down, x: 300)
        d.ruler.advance(to: d.time, events: &d.events)
        _ = d.ruler.pointer(
            PointerInput(phase: .move, key: d.key, position: Point(x: 300, y: d.y), clientTime: 1e-300),
            at: d.time, events: &d.events)
        _ = d.ruler.pointer(
            PointerInput(phase: .up, key: d.key, position: Point(x: 300, y: d.y), clientTime: 1e-300),
            at: d.time, events: &d.events)
        d.run(for: 1)
        #expect(d.finalValues == [72.5])
    }
}
