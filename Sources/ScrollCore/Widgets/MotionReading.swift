/// The one number that moves when a widget moves, read at the widget's latest time, with its
/// rate: what `widget-replay --plot` draws over time for a bug report about motion.
public struct MotionReading: Sendable, Equatable {
    /// What the number is: "offset", "shown number".
    public var quantity: String
    /// Its unit: "pt", "kg", or "" for a plain number.
    public var unit: String
    public var position: Double
    /// Its rate of change, in `unit` per second.
    public var velocity: Double

    public init(quantity: String, unit: String, position: Double, velocity: Double) {
        self.quantity = quantity; self.unit = unit; self.position = position; self.velocity = velocity
    }

    /// A scroll axis's content offset at `time` and its velocity: the running simulation's, or
    /// while a finger drags it, the velocity a lift then would release.
    public init(offsetOf axis: ScrollAxis, at time: Double) {
        self.init(
            quantity: "offset", unit: "pt", position: axis.offset(at: time),
            velocity: axis.trackedVelocity ?? axis.velocity(at: time))
    }
}
