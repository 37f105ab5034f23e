/// UIKit deceleration rates: the fraction of velocity kept per millisecond.
public enum DecelerationRate: Sendable, Equatable {
    case normal, fast
    case custom(Double)

    public var perMillisecond: Double {
        switch self {
        case .normal: return 0.998
        case .fast: return 0.99
        case .custom(let d): return d
        }
    }
}
