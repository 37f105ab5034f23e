import Foundation

/// Mass, stiffness and damping of a damped harmonic oscillator.
public struct SpringDescription: Sendable, Equatable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double

    /// `damping` nil means critical damping, 2·sqrt(k·m): the fastest return
    /// that never overshoots the target when starting at rest.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double? = nil) {
        precondition(mass > 0 && stiffness > 0, "spring needs positive mass and stiffness")
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping ?? 2 * (stiffness * mass).squareRoot()
        precondition(self.damping > 0, "an undamped spring never comes to rest")
    }

    /// The rubber-band return: mass 1, stiffness 100, critically damped.
    public static let bounce = SpringDescription()
}

/// A damped spring from `x0` with velocity `v0` towards `target`, in closed form
/// for the critically, under- and over-damped cases.
public struct SpringSimulation: Simulation, Equatable {
    /// Done once the energy ½m·v² + ½k·y² is below ½k·ε² with ε = 0.1 pt, which
    /// guarantees |y| ≤ 0.1 pt and |v| ≤ ε·sqrt(k/m) (1 pt/s for the bounce).
    /// Energy never increases in a damped spring, so once done it stays done.
    public static let positionTolerance = 0.1

    public let spring: SpringDescription
    public let finalPosition: Double
    public let doneTime: Double
    private let solution: SpringSolution

    public init(from x0: Double, velocity v0: Double, to target: Double, spring: SpringDescription = .bounce) {
        self.spring = spring
        finalPosition = target
        solution = SpringSolution(y0: x0 - target, v0: v0, spring: spring)
        doneTime = Self.restTime(of: solution, spring: spring)
    }

    public func position(at t: Double) -> Double {
        finalPosition + solution.displacement(at: max(t, 0))
    }

    public func velocity(at t: Double) -> Double {
        solution.velocity(at: max(t, 0))
    }

    /// Energy decreases monotonically, so the crossing is unique: bracket it by
    /// doubling, then bisect. Computed once from the parameters alone, so it is
    /// the same whatever the tick rate.
    private static func restTime(of solution: SpringSolution, spring: SpringDescription) -> Double {
        func atRest(_ t: Double) -> Bool {
            let y = solution.displacement(at: t), v = solution.velocity(at: t)
            let energy = spring.mass * v * v + spring.stiffness * y * y
            return energy <= spring.stiffness * positionTolerance * positionTolerance
        }
        if atRest(0) { return 0 }
        var lo = 0.0, hi = 1 / 64.0
        // The bound only stops a non-finite start from looping forever.
        while !atRest(hi) && hi < 1e6 {
            lo = hi
            hi *= 2
        }
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if atRest(mid) { hi = mid } else { lo = mid }
        }
        return hi
    }
}

/// Displacement y = x − target of a damped spring.
private enum SpringSolution: Sendable, Equatable {
    /// y = (a + b·t)·e^(r·t)
    case critical(r: Double, a: Double, b: Double)
    /// y = e^(−α·t)·(a·cos ω·t + b·sin ω·t)
    case under(alpha: Double, omega: Double, a: Double, b: Double)
    /// y = a·e^(r1·t) + b·e^(r2·t)
    case over(r1: Double, r2: Double, a: Double, b: Double)

    init(y0: Double, v0: Double, spring: SpringDescription) {
        let (m, k, c) = (spring.mass, spring.stiffness, spring.damping)
        let discriminant = c * c - 4 * m * k
        // Relative tolerance: the default damping 2·sqrt(k·m) must count as
        // critical even when the square root is rounded.
        if abs(discriminant) <= 1e-9 * 4 * m * k {
            let r = -c / (2 * m)
            self = .critical(r: r, a: y0, b: v0 - r * y0)
        } else if discriminant < 0 {
            let alpha = c / (2 * m)
            let omega = (-discriminant).squareRoot() / (2 * m)
            self = .under(alpha: alpha, omega: omega, a: y0, b: (v0 + alpha * y0) / omega)
        } else {
            let root = discriminant.squareRoot()
            let r1 = (-c + root) / (2 * m)
            let r2 = (-c - root) / (2 * m)
            let b = (v0 - r1 * y0) / (r2 - r1)
            self = .over(r1: r1, r2: r2, a: y0 - b, b: b)
        }
    }

    func displacement(at t: Double) -> Double {
        switch self {
        case let .critical(r, a, b):
            return (a + b * t) * exp(r * t)
        case let .under(alpha, omega, a, b):
            return exp(-alpha * t) * (a * cos(omega * t) + b * sin(omega * t))
        case let .over(r1, r2, a, b):
            return a * exp(r1 * t) + b * exp(r2 * t)
        }
    }

    func velocity(at t: Double) -> Double {
        switch self {
        case let .critical(r, a, b):
            return (b + r * (a + b * t)) * exp(r * t)
        case let .under(alpha, omega, a, b):
            let (s, c) = (sin(omega * t), cos(omega * t))
            return exp(-alpha * t) * ((b * omega - alpha * a) * c - (a * omega + alpha * b) * s)
        case let .over(r1, r2, a, b):
            return a * r1 * exp(r1 * t) + b * r2 * exp(r2 * t)
        }
    }
}
