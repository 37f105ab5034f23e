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

    @Test(
        "keyframes: the unrolled path as eased moves, a knot a segment end, from the segment running now; nil for a spring or a cut move"
    )
    func keyframes() throws {
        // As `unrolled`'s column: 3 eases in to 10, four turns, then 0 eases out to 7. Unrolled it
        // runs from 3 − 50 to 7 (five turns of the strip).
        var v = AnimatedValue(3)
        v.animate(to: 10, at: 1, duration: 0.2, curve: .easeIn)
        v.run(RepeatSimulation(from: 0, to: 10, period: 0.1, count: 4), at: 1.2, target: 10)
        v.animate(from: 0, to: 7, at: 1.6, duration: 0.3, curve: .easeOut)
        func frames(after t: Double) -> [[Double]]? {
            // To the nanosecond (1.6 + 0.3 is 1.9000000000000001).
            v.keyframes(after: t, period: 10)?.map {
                [($0.time * 1e9).rounded() / 1e9, $0.offset.y, $0.curve == .linear ? 0 : 1]
            }
        }
        #expect(frames(after: 1.05) == [[1, -47, 0], [1.2, -40, 1], [1.6, 0, 0], [1.9, 7, 1]])
        // Before it starts: held where it is until then. Within the turns: from their start.
        #expect(frames(after: 0.5) == [[0.5, -47, 0], [1, -47, 0], [1.2, -40, 1], [1.6, 0, 0], [1.9, 7, 1]])
        #expect(frames(after: 1.3) == [[1.2, -40, 0], [1.6, 0, 0], [1.9, 7, 1]])
        #expect(frames(after: 2) == [[2, 7, 0]])
        let curves = v.keyframes(after: 1.05, period: 10)?.map(\.curve)
        #expect(curves == [.linear, .easeIn, .linear, .easeOut])
        // A spring is not an ease: no keyframes (the track is fitted instead).
        var sprung = AnimatedValue(0)
        sprung.spring(to: 5, at: 0)
        #expect(sprung.keyframes(after: 0, period: 10) == nil)
        // Nor is a move the next one cuts short; once the next is in charge, it is from its start.
        var cut = AnimatedValue(0)
        cut.animate(to: 5, at: 0, duration: 1)
        cut.animate(to: 2, at: 0.5, duration: 1)
        #expect(cut.keyframes(after: 0.2, period: 10) == nil)
        #expect(cut.keyframes(after: 0.6, period: 10)?.map(\.time) == [0.5, 1.5])
        #expect(cut.keyframes(after: 0.6, period: 10)?.last?.offset.y == 2)
        var queued = AnimatedValue(0)
        queued.animate(to: 5, at: 0, duration: 1)
        queued.run(EaseSimulation(from: 5, to: 8, duration: 1), at: 1, target: 8)
        #expect(queued.keyframes(after: 0.2, period: 10)?.count == 3)
    }

    @Test(
        "keyframes hold until a later move and jump where it starts elsewhere; a move one rounding error early is a hand-over"
    )
    func keyframesHoldAndSlack() {
        // 0 eases out to 5 by 1 s; a move queued for 2 s starts at 8: held at 5, then a jump.
        var v = AnimatedValue(0)
        v.animate(to: 5, at: 0, duration: 1, curve: .easeOut)
        v.animate(from: 8, to: 9, at: 2, duration: 1, curve: .easeIn)
        let frames = v.keyframes(after: 0, period: 10)
        #expect(frames?.map(\.time) == [0, 1, 2, 2, 3] && frames?.map(\.offset.y) == [0, 5, 5, 8, 9])
        #expect(frames?.map(\.curve) == [.linear, .easeOut, .linear, .linear, .easeIn])
        // One move ends at 0.1 + 0.2 (0.30000000000000004), the next starts at 0.3: a hand-over.
        var w = AnimatedValue(0)
        w.animate(to: 5, at: 0.1, duration: 0.2, curve: .easeOut)
        w.animate(from: 5, to: 7, at: 0.3, duration: 0.5, curve: .easeIn)
        #expect(w.keyframes(after: 0.2, period: 10)?.map(\.offset.y) == [0, 5, 7])
    }

    @Test(
        "unrolled: the value modulo one turn, running on where it wraps, ending on the target; corners only where segments hand over"
    )
    func unrolled() throws {
        // A column at 3 eases to the bottom 0 (10), turns 4 times (0 → 10 in 0.1 s each), then
        // restarts at the top and eases to 7.
        var v = AnimatedValue(3)
        v.animate(to: 10, at: 1, duration: 0.2)
        v.run(RepeatSimulation(from: 0, to: 10, period: 0.1, count: 4), at: 1.2, target: 10)
        v.animate(from: 0, to: 7, at: 1.6, duration: 0.3)
        let path = v.unrolled(after: 1.05, period: 10)
        // No corner per turn: the segments' ends only (the ease's end is the turns' start).
        let expected = [1.2, 1.2, 1.6, 1.6, 1.9]
        #expect(path.breaks.count == expected.count)
        for (a, e) in zip(path.breaks, expected) { #expect(abs(a - e) < 1e-12, "\(path.breaks)") }
        // It ends on 7 exactly; back at the start it is 7 − 4 turns − the ease's 7 rows − the
        // last ease's 7: 3 − 50 (five turns of the strip: 3 → 10, four turns, 0 → 7 is 7 more).
        #expect(path.value(1.9) == 7 && path.value(5) == 7)
        #expect(path.value(0) == 3 - 50 && path.value(1) == 3 - 50)
        var t = 0.9, last = path.value(0.9)
        while t < 2 {
            t += 0.0005
            let u = path.value(t)
            let apart = (u - v.value(at: t)).truncatingRemainder(dividingBy: 10)
            #expect(min(abs(apart), 10 - abs(apart)) < 1e-9, "at \(t): \(u) and \(v.value(at: t))")
            // Continuous and never going back: at most 10 rows / 0.1 s × 0.5 ms = 0.05 a step.
            #expect(u >= last && u - last <= 0.0501, "at \(t): \(last) → \(u)")
            last = u
        }
        // A column turning millions of times (most of an 8-digit range): one line, no list of
        // its turns: 5,000,000 turns in 1 s, ending on 10.
        var spin = AnimatedValue(0)
        spin.run(RepeatSimulation(from: 0, to: 10, period: 2e-7, count: 5_000_000), at: 0, target: 10)
        let line = spin.unrolled(after: 0, period: 10)
        #expect(line.breaks == [1.0000000000000002] || line.breaks == [1])
        #expect(line.value(1) == 10 && line.value(0) == 10 - 50_000_000 && line.value(0.5) == 10 - 25_000_000)
    }
}

extension AnimatedValue {
    /// The ease-in-out value of a 0→1 segment, for comparisons.
    static func eased(_ from: Double, _ to: Double, at t: Double, duration: Double) -> Double {
        EaseSimulation(from: from, to: to, duration: duration).position(at: t)
    }
}
