import Testing

@testable import ScrollCore

/// Timed animations (docs/PHYSICS.md, "Timed animations"): segments with exact start and end
/// times, pure functions of scene time, so they give the same result at any frame rate, and
/// retarget and queue without jumps.
@Suite struct AnimatedValueTests {
    @Test("an ease runs from its start to its end time exactly, ease-in-out: halfway at half time")
    func ease() {
        var v = AnimatedValue(0)
        v.animate(to: 10, at: 1, duration: 0.3)
        #expect(v.value(at: 0.5) == 0 && v.value(at: 1) == 0)
        #expect(abs(v.value(at: 1.15) - 5) < 1e-9)
        #expect(v.value(at: 1.3) == 10 && v.value(at: 5) == 10)
        #expect(v.isAnimating(at: 1.29) && !v.isAnimating(at: 1.3))
        #expect(v.endTime == 1.3 && v.target == 10)
    }

    @Test("retargeting mid-flight starts from where the value is: no jump")
    func retarget() {
        var v = AnimatedValue(0)
        v.animate(to: 10, at: 0, duration: 0.3)
        let here = v.value(at: 0.1)
        v.animate(to: -4, at: 0.1, duration: 0.3)
        #expect(v.value(at: 0.1) == here)
        #expect(abs(v.value(at: 0.1 + 1e-6) - here) < 1e-3)
        #expect(v.value(at: 0.4) == -4 && v.target == -4)
        // Before the retarget the first segment still tells the past.
        #expect(v.value(at: 0.05) == AnimatedValue.eased(0, 10, at: 0.05, duration: 0.3))
    }

    @Test("a segment scheduled for later waits behind the running one, then takes over from its end")
    func queued() {
        var v = AnimatedValue(0)
        v.animate(to: 1, at: 0, duration: 0.2)
        v.animate(to: 3, at: 0.5, duration: 0.2)
        #expect(v.value(at: 0.3) == 1 && !v.isAnimating(at: 0.7) && v.isAnimating(at: 0.45))
        #expect(abs(v.value(at: 0.6) - 2) < 1e-9)
        // Scheduling at 0.1 replaces what was queued after it.
        v.animate(to: 7, at: 0.1, duration: 0.2)
        #expect(v.value(at: 0.6) == 7)
    }

    @Test("a spring starts with the value and the velocity it takes over, and ends exactly on target")
    func springContinuity() {
        var v = AnimatedValue(0)
        v.animate(to: 100, at: 0, duration: 0.4)
        let x = v.value(at: 0.2), speed = v.velocity(at: 0.2)
        #expect(speed > 0)
        v.spring(to: 0, at: 0.2)
        #expect(abs(v.value(at: 0.2) - x) < 1e-9)
        #expect(abs(v.velocity(at: 0.2) - speed) < 1e-6)
        #expect(v.value(at: v.endTime) == 0 && v.value(at: v.endTime + 1) == 0)
    }

    @Test("set jumps; discard forgets what time has passed and keeps every value from then on")
    func setAndDiscard() {
        var v = AnimatedValue(2)
        v.animate(to: 4, at: 0, duration: 1)
        v.animate(to: 8, at: 0.5, duration: 1)
        let later = [0.6, 1.0, 1.5, 3].map { v.value(at: $0) }
        v.discard(before: 0.6)
        #expect([0.6, 1.0, 1.5, 3].map { v.value(at: $0) } == later)
        v.discard(before: 2)
        #expect(v.value(at: 2) == 8 && v.endTime == -.infinity)
        v.set(1, at: 3)
        #expect(v.value(at: 2.9) == 8 && v.value(at: 3) == 1)
    }

    @Test("a timed motion holds its ends and can be cut short; rebase shifts every position")
    func timedMotion() {
        var m = TimedMotion(EaseSimulation(from: 0, to: 10, duration: 1), start: 2, end: 2.5)
        #expect(
            m.position(at: 0) == 0 && abs(m.position(at: 2.5) - 5) < 1e-9 && m.position(at: 9) == m.position(at: 2.5))
        #expect(m.velocity(at: 1) == 0 && m.velocity(at: 2.5) == 0 && m.velocity(at: 2.25) > 0)
        m.rebase(by: -100)
        #expect(abs(m.position(at: 2.5) + 95) < 1e-9)
    }

    @Test("breaks: each segment's ends and each turn, in order, after a time; none listed past the most asked")
    func breaksAtMost() throws {
        var v = AnimatedValue(0)
        v.animate(to: 10, at: 1, duration: 0.2)
        // 4 turns of 0.1 s after the ease: corners at each turn's end.
        v.run(RepeatSimulation(from: 0, to: 10, period: 0.1, count: 4), at: 1.2, target: 10)
        let all = try #require(v.breaks(after: 1.05))
        let expected = [1.2, 1.2, 1.3, 1.4, 1.5, 1.6]
        #expect(all.count == expected.count)
        for (a, e) in zip(all, expected) { #expect(abs(a - e) < 1e-12, "\(all)") }
        #expect(v.breaks(after: 1.05, atMost: 6) != nil)
        #expect(v.breaks(after: 1.05, atMost: 5) == nil)
        // A column turning millions of times (a roll across most of an 8-digit range) is refused
        // without listing them: 5,000,000 turns in 1 s.
        var spin = AnimatedValue(0)
        spin.run(RepeatSimulation(from: 0, to: 10, period: 2e-7, count: 5_000_000), at: 0, target: 10)
        #expect(spin.breaks(after: 0, atMost: 128) == nil)
        #expect(RepeatSimulation(from: 0, to: 10, period: 0.1, count: 129).breaks(atMost: 128)?.count == 128)
    }
}

extension AnimatedValue {
    /// The ease-in-out value of a 0→1 segment, for comparisons.
    static func eased(_ from: Double, _ to: Double, at t: Double, duration: Double) -> Double {
        EaseSimulation(from: from, to: to, duration: duration).position(at: t)
    }
}
