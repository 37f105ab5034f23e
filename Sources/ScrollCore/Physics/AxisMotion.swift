/// One motion the axis is running and what follows it. The motion is a `TimedMotion`, so
/// the hand-over happens at its exact end time whatever the tick rate.
struct AxisMotion: Sendable {
    /// What the axis does once the motion ends.
    enum Next: Sendable {
        /// Stop exactly here.
        case rest(Double)
        /// Stop here, or settle onto the nearest snap point.
        case settle(Double)
        /// A fling crossed a rubber-band edge: spring back with its velocity there.
        case bounce(from: Double, velocity: Double, to: Double)

        func shifted(by delta: Double) -> Next {
            switch self {
            case .rest(let x): return .rest(x + delta)
            case .settle(let x): return .settle(x + delta)
            case let .bounce(from, velocity, to): return .bounce(from: from + delta, velocity: velocity, to: to + delta)
            }
        }
    }

    var phase: AxisPhase
    var motion: TimedMotion
    var next: Next

    var start: Double { motion.start }
    var end: Double { motion.end }

    func position(at time: Double) -> Double { motion.position(at: time) }
    func velocity(at time: Double) -> Double { motion.velocity(at: time) }

    mutating func rebase(by delta: Double) {
        motion.rebase(by: delta)
        next = next.shifted(by: delta)
    }
}
