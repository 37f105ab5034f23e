/// One simulation the axis is running, placed in scene time, and what follows
/// it. `end` is computed from the simulation when it starts, so the hand-over
/// happens at that exact time whatever the tick rate.
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
    var simulation: any Simulation
    /// Scene time at which the simulation's t = 0 falls.
    var start: Double
    var end: Double
    var next: Next
    /// Accumulated `rebase` deltas, added to the simulation's positions.
    var shift = 0.0

    func position(at time: Double) -> Double {
        simulation.position(at: time - start) + shift
    }

    func velocity(at time: Double) -> Double {
        simulation.velocity(at: time - start)
    }

    mutating func rebase(by delta: Double) {
        shift += delta
        next = next.shifted(by: delta)
    }
}
