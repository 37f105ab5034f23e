import Foundation

/// UIScrollView's momentum: velocity is multiplied by `rate` every millisecond.
/// v(t) = v0·d^(1000t), x(t) = x0 + v0·(d^(1000t) − 1)/(1000·ln d).
public struct DecelerationSimulation: Simulation, Equatable {
    /// Done once the distance still to travel is below this (pt): the tail
    /// of an exponential is invisible but would otherwise last for seconds.
    public static let restThreshold = 0.5

    public let start: Double
    public let initialVelocity: Double
    /// Rate per millisecond, 0 < d < 1.
    public let rate: Double
    /// x∞ = x0 − v0/(1000·ln d), or the exact target of a retargeted fling.
    public let finalPosition: Double
    public let doneTime: Double

    /// Free deceleration from `x0` with `v0` (pt/s).
    public init(from x0: Double, velocity v0: Double, rate d: Double) {
        precondition(d > 0 && d < 1, "deceleration rate must be in (0, 1)")
        self.init(start: x0, velocity: v0, rate: d, rest: x0 + v0 / Self.decay(d))
    }

    /// The deceleration that comes to rest exactly on `target`:
    /// v0 = (target − x0)·(−1000·ln d). Used for projected snapping.
    public init(from x0: Double, to target: Double, rate d: Double) {
        precondition(d > 0 && d < 1, "deceleration rate must be in (0, 1)")
        self.init(start: x0, velocity: (target - x0) * Self.decay(d), rate: d, rest: target)
    }

    private init(start: Double, velocity: Double, rate: Double, rest: Double) {
        self.start = start
        self.initialVelocity = velocity
        self.rate = rate
        self.finalPosition = rest
        // Remaining distance is |v(t)|/k; solve |v0|·d^(1000t)/k = threshold.
        let remaining = abs(velocity) / Self.decay(rate)
        doneTime =
            remaining <= Self.restThreshold
            ? 0
            : log(Self.restThreshold / remaining) / (1000 * log(rate))
    }

    /// k = −1000·ln d (1/s): v(t) = v0·e^(−kt).
    static func decay(_ d: Double) -> Double { -1000 * log(d) }

    public func position(at t: Double) -> Double {
        start + initialVelocity * (1 - factor(t)) / Self.decay(rate)
    }

    public func velocity(at t: Double) -> Double {
        initialVelocity * factor(t)
    }

    /// When the motion passes `x`, in closed form: d^(1000t) = 1 − (x − x0)·k/v0.
    /// Nil when `x` is behind the start or beyond the rest position.
    public func time(reaching x: Double) -> Double? {
        if x == start { return 0 }
        guard initialVelocity != 0 else { return nil }
        let remainingFactor = 1 - (x - start) * Self.decay(rate) / initialVelocity
        guard remainingFactor > 0, remainingFactor <= 1 else { return nil }
        return log(remainingFactor) / (1000 * log(rate))
    }

    private func factor(_ t: Double) -> Double { pow(rate, 1000 * max(t, 0)) }
}
