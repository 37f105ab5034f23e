/// A CSS/Core Animation timing curve: cubic Bézier from (0,0) to (1,1).
public struct CubicBezierEasing: Sendable, Equatable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    public static let linear = CubicBezierEasing(0, 0, 1, 1)
    public static let ease = CubicBezierEasing(0.25, 0.1, 0.25, 1)
    public static let easeIn = CubicBezierEasing(0.42, 0, 1, 1)
    public static let easeOut = CubicBezierEasing(0, 0, 0.58, 1)
    public static let easeInOut = CubicBezierEasing(0.42, 0, 0.58, 1)

    /// Its numbers rounded to float32, as a track sends them.
    public var float32: CubicBezierEasing {
        func f(_ v: Double) -> Double { Double(Float(v)) }
        return CubicBezierEasing(f(x1), f(y1), f(x2), f(y2))
    }

    /// Progress (0…1) at normalised time `u` (clamped to 0…1).
    public func value(at u: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        return sample(y1, y2, parameter(forX: u))
    }

    /// d(progress)/du at normalised time `u`; 0 outside 0…1, where it is flat.
    public func slope(at u: Double) -> Double {
        guard u > 0, u < 1 else { return 0 }
        let s = parameter(forX: u)
        let dx = slope(x1, x2, s)
        // dx/ds vanishes only where the curve is vertical, which a timing
        // curve (0 ≤ x1, x2 ≤ 1) can only touch at its ends.
        return dx > 1e-12 ? slope(y1, y2, s) / dx : 0
    }

    private func sample(_ a: Double, _ b: Double, _ s: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * a + 3 * r * s * s * b + s * s * s
    }

    private func slope(_ a: Double, _ b: Double, _ s: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * a + 6 * r * s * (b - a) + 3 * s * s * (1 - b)
    }

    // Newton first (fast), bisection as the fallback where the slope vanishes.
    private func parameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let err = sample(x1, x2, s) - x
            if abs(err) < 1e-12 { return s }
            let d = slope(x1, x2, s)
            if abs(d) < 1e-9 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let v = sample(x1, x2, s)
            if abs(v - x) < 1e-12 { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
