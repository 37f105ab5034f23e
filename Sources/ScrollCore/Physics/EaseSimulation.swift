/// A timed animation along a timing curve (keyboard steps, tap-to-centre,
/// snap settles). UIView animations default to ease-in-out.
public struct EaseSimulation: Simulation, Equatable {
    public let start: Double
    public let finalPosition: Double
    public let duration: Double
    public let curve: CubicBezierEasing

    public init(from start: Double, to target: Double, duration: Double, curve: CubicBezierEasing = .easeInOut) {
        self.start = start
        finalPosition = target
        self.duration = max(duration, 0)
        self.curve = curve
    }

    public var doneTime: Double { duration }

    public func position(at t: Double) -> Double {
        guard duration > 0 else { return finalPosition }
        return start + (finalPosition - start) * curve.value(at: t / duration)
    }

    public func velocity(at t: Double) -> Double {
        guard duration > 0 else { return 0 }
        return (finalPosition - start) * curve.slope(at: t / duration) / duration
    }
}
