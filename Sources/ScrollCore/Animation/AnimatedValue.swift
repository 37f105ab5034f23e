/// A number moved by timed segments — eased or spring-driven — and a pure function of scene
/// time, like the scroll axis: no ticking, so 30, 60 or 240 Hz see the same values.
///
/// Scheduling a segment at time s keeps what was scheduled before s and replaces what came
/// after. The new segment starts from wherever the value is at s (and a spring from how fast
/// it moves), so retargeting mid-flight never jumps, and a segment can also be queued for
/// later (s in the future) behind the running one.
public struct AnimatedValue: Sendable {
    private struct Segment: Sendable {
        var motion: TimedMotion
        /// Exactly where it ends (a spring's position at its done time is only close).
        var target: Double
    }

    /// The value before the first remaining segment.
    private var base: Double
    /// In start order; each is in charge from its start until the next one's.
    private var segments: [Segment] = []

    public init(_ value: Double) { base = value }

    public func value(at time: Double) -> Double {
        guard let segment = segments.last(where: { $0.motion.start <= time }) else { return base }
        return time >= segment.motion.end ? segment.target : segment.motion.position(at: time)
    }

    public func velocity(at time: Double) -> Double {
        segments.last { $0.motion.start <= time }?.motion.velocity(at: time) ?? 0
    }

    /// Where it ends once everything scheduled has run.
    public var target: Double { segments.last?.target ?? base }
    /// When the last scheduled segment ends (−∞ when none is).
    public var endTime: Double { segments.last?.motion.end ?? -.infinity }
    public func isAnimating(at time: Double) -> Bool { time < endTime }

    /// The ease in charge at `time`, while it runs and nothing is scheduled after it: the page
    /// can play it on its own from its start to its end (a `Tween`). Nil when none runs then, or
    /// it is not an ease (a spring), or another segment follows it.
    public func ease(at time: Double) -> (simulation: EaseSimulation, start: Double)? {
        guard let last = segments.last, last.motion.start <= time, time < last.motion.end,
            let ease = last.motion.simulation as? EaseSimulation
        else { return nil }
        return (ease, last.motion.start)
    }

    /// Jumps to `value` at `time` (no animation).
    public mutating func set(_ value: Double, at time: Double) {
        schedule(EaseSimulation(from: value, to: value, duration: 0), target: value, at: time)
    }

    /// Eases from the value at `time` to `target` over `duration` s.
    public mutating func animate(
        to target: Double, at time: Double, duration: Double, curve: CubicBezierEasing = .easeInOut
    ) {
        let from = value(at: time)
        schedule(EaseSimulation(from: from, to: target, duration: duration, curve: curve), target: target, at: time)
    }

    /// Jumps to `from` at `time`, then eases to `target` (a roller column's restart at the top).
    public mutating func animate(
        from: Double, to target: Double, at time: Double, duration: Double, curve: CubicBezierEasing = .easeInOut
    ) {
        schedule(EaseSimulation(from: from, to: target, duration: duration, curve: curve), target: target, at: time)
    }

    /// Runs `simulation` from `time`; it ends exactly on `target`.
    public mutating func run(_ simulation: any Simulation, at time: Double, target: Double) {
        schedule(simulation, target: target, at: time)
    }

    /// Springs from the value and velocity at `time` to `target`.
    public mutating func spring(to target: Double, at time: Double, spring: SpringDescription = .bounce) {
        let simulation = SpringSimulation(
            from: value(at: time), velocity: velocity(at: time), to: target, spring: spring)
        schedule(simulation, target: target, at: time)
    }

    /// The value with every turn unrolled (`period`: one turn, 10 for a roller's column): equal to
    /// `value(at:)` modulo `period`, but where that wraps round (a turn ends, a column restarts at
    /// the top) this runs on, and it ends on `target` exactly. A wrapping track (`Track.Wrap`) of it
    /// needs a corner only where one segment hands over to the next: `breaks`, those after `time`.
    public func unrolled(after time: Double, period: Double) -> (breaks: [Double], value: (Double) -> Double) {
        let (pieces, base) = unrolledPieces(period: period)
        return (breaks(after: time), { t in pieces.last(where: { $0.motion.start <= t })?.value(at: t) ?? base })
    }

    /// `unrolled` as eased moves, exactly (`Track.Keyframe`, offset y = value): from the start of
    /// the segment running at `time` (or a keyframe at `time` when none runs) to the end of the
    /// last. Nil when a segment after `time` is not an ease or a linear turn, or is cut short by
    /// the next (the rest of a curve is not that curve).
    public func keyframes(after time: Double, period: Double) -> [Track.Keyframe]? {
        let (pieces, base) = unrolledPieces(period: period)
        // Those in charge after `time`: each until it ends or the next one starts.
        let live = pieces.indices.filter { i in
            min(pieces[i].motion.end, i + 1 < pieces.count ? pieces[i + 1].motion.start : .infinity) > time
        }.map { pieces[$0] }
        func at(_ y: Double) -> Point { Point(x: 0, y: y) }
        let held = (pieces.last { $0.motion.start <= time }?.value(at: time)) ?? base
        guard let first = live.first else { return [Track.Keyframe(time: time, offset: at(held))] }
        var frames = first.motion.start > time ? Track.Keyframes(holding: at(held), from: time) : Track.Keyframes()
        for piece in live {
            let curve: CubicBezierEasing
            switch piece.motion.simulation {
            case let ease as EaseSimulation: curve = ease.curve
            case is RepeatSimulation: curve = .linear
            default: return nil
            }
            let (start, end) = (piece.motion.start, piece.motion.end)
            guard
                frames.move(
                    from: at(piece.value(at: start)), at: start, to: at(piece.value(at: end)), at: end, curve: curve)
            else { return nil }
        }
        return frames.frames
    }

    /// A segment's simulation with its turns unrolled, `shift`ed by whole turns so it runs on
    /// from the one before.
    private struct Piece {
        var motion: TimedMotion
        /// Where it rests, as it runs on (a repeat's `target` is one turn's end).
        var rest: Double
        var shift: Double
        func value(at t: Double) -> Double { (t >= motion.end ? rest : motion.position(at: t)) + shift }
    }

    /// The segments unrolled, and the value before them, shifted by whole turns to end on `target`.
    private func unrolledPieces(period: Double) -> (pieces: [Piece], base: Double) {
        var pieces: [Piece] = []
        for s in segments {
            let line = s.motion.simulation.unrolled
            let motion = TimedMotion(line, start: s.motion.start)
            let rest = s.target + line.finalPosition - s.motion.simulation.finalPosition
            let before = pieces.last?.value(at: motion.start) ?? base
            // Whole turns, so that it runs on from where the one before it is.
            let shift = ((before - motion.position(at: motion.start)) / period).rounded() * period
            pieces.append(Piece(motion: motion, rest: rest, shift: shift))
        }
        // Whole turns again, so that it ends on `target` as `value(at:)` does.
        let end = pieces.last.map { $0.value(at: $0.motion.end) } ?? base
        let last = ((target - end) / period).rounded() * period
        for i in pieces.indices { pieces[i].shift += last }
        return (pieces, base + last)
    }

    /// The times after `time` where one segment, or one part of a segment's simulation, hands
    /// over to the next, in order: a track of it needs a corner (or a jump) only there.
    public func breaks(after time: Double) -> [Double] {
        segments.flatMap { s in
            let start = s.motion.start
            return [start, s.motion.end] + s.motion.simulation.unrolled.breaks.map { start + $0 }
        }.filter { $0 > time }.sorted()
    }

    /// Forgets what can no longer be reached once time has come to `time` (time only moves
    /// forward), so a long-lived value keeps a bounded list.
    public mutating func discard(before time: Double) {
        while let first = segments.first {
            let handedOver = segments.count > 1 && segments[1].motion.start <= time
            let finished = segments.count == 1 && first.motion.end <= time
            guard handedOver || finished else { return }
            base = finished ? first.target : value(at: segments[1].motion.start)
            segments.removeFirst()
        }
    }

    private mutating func schedule(_ simulation: any Simulation, target: Double, at time: Double) {
        segments.removeAll { $0.motion.start >= time }
        segments.append(Segment(motion: TimedMotion(simulation, start: time), target: target))
    }
}
