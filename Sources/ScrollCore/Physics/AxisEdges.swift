/// What happens at the ends of the scrollable range.
public enum AxisEdges: Sendable, Equatable {
    /// Infinite content (the weight ruler).
    case none
    /// Clamped, never overshoots (`bounces = false`).
    case hard(min: Double, max: Double)
    /// Rubber band past the edges, spring back; `dimension` is D in b(x).
    case rubberBand(min: Double, max: Double, dimension: Double)

    /// The scrollable range, nil for infinite content.
    public var range: ClosedRange<Double>? {
        switch self {
        case .none: return nil
        case let .hard(lo, hi), let .rubberBand(lo, hi, _): return lo...hi
        }
    }

    /// `x` clamped into the range.
    public func clamp(_ x: Double) -> Double {
        guard let range else { return x }
        return min(max(x, range.lowerBound), range.upperBound)
    }

    /// What the axis may show at `x`: hard edges never let it out of the range.
    func limit(_ x: Double) -> Double {
        if case .hard = self { return clamp(x) }
        return x
    }

    /// The same edges in a coordinate system shifted by `delta`.
    func shifted(by delta: Double) -> AxisEdges {
        switch self {
        case .none: return .none
        case let .hard(lo, hi): return .hard(min: lo + delta, max: hi + delta)
        case let .rubberBand(lo, hi, d): return .rubberBand(min: lo + delta, max: hi + delta, dimension: d)
        }
    }
}
