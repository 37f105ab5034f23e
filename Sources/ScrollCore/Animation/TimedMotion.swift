/// A simulation placed on the scene timeline: its t = 0 falls at `start`, and it ends at
/// `end`, fixed when it starts, so whatever follows it takes over at that exact time
/// whatever the tick rate. The scroll axis's motions (fling, bounce, snap) and the widgets'
/// timed animations (insert, delete, the roller's digits) are all one of these.
public struct TimedMotion: Sendable {
    public let simulation: any Simulation
    public let start: Double
    public let end: Double
    /// Added to every position: the coordinate system was rebased while it ran.
    public private(set) var shift = 0.0

    /// `end` defaults to the simulation's own done time; an earlier one cuts it short
    /// (a fling stopped by an edge).
    public init(_ simulation: any Simulation, start: Double, end: Double? = nil) {
        self.simulation = simulation
        self.start = start
        self.end = end ?? start + simulation.doneTime
    }

    /// The position at scene time `time`, held at its ends outside [start, end].
    public func position(at time: Double) -> Double {
        simulation.position(at: min(max(time, start), end) - start) + shift
    }

    public func velocity(at time: Double) -> Double {
        time < start || time >= end ? 0 : simulation.velocity(at: time - start)
    }

    public mutating func rebase(by delta: Double) { shift += delta }
}
