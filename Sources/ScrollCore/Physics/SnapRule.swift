/// Rest positions are `origin + k·step`.
public struct SnapRule: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// Pick the target from the projected rest position; the motion lands there.
        case projected
        /// Come to rest, then animate to the nearest snap point.
        case afterRest
    }
    public var step: Double
    public var origin: Double
    public var mode: Mode
    /// Duration of the settle animation used when there is no momentum to carry.
    public var settleDuration: Double

    public init(step: Double, origin: Double = 0, mode: Mode = .projected, settleDuration: Double = 0.2) {
        self.step = step
        self.origin = origin
        self.mode = mode
        self.settleDuration = settleDuration
    }

    public func nearest(to x: Double) -> Double {
        origin + (((x - origin) / step).rounded()) * step
    }

    /// The snap point nearest `x` that lies inside `edges`; when the nearest is
    /// outside, the last one inside. Falls back to the clamped edge when no snap
    /// point fits in the range at all.
    public func nearest(to x: Double, within edges: AxisEdges) -> Double {
        let point = nearest(to: x)
        guard let range = edges.range else { return point }
        let inside: Double
        if point > range.upperBound {
            inside = origin + ((range.upperBound - origin) / step).rounded(.down) * step
        } else if point < range.lowerBound {
            inside = origin + ((range.lowerBound - origin) / step).rounded(.up) * step
        } else {
            return point
        }
        return range.contains(inside) ? inside : edges.clamp(x)
    }

    /// The same snap points in a coordinate system shifted by `delta`. The
    /// origin is reduced modulo `step` (same lattice) so that repeated rebasing
    /// keeps the numbers small.
    func shifted(by delta: Double) -> SnapRule {
        var rule = self
        rule.origin = (origin + delta).remainder(dividingBy: step)
        return rule
    }
}
