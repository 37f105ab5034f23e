/// Release velocity of a pointer from its (clientTime, position) samples, the
/// way Android and Flutter estimate it: a least-squares fit over a short
/// window, evaluated at the newest sample. Times are the client's own
/// timestamps (s), so network jitter on the way to the server does not matter.
public struct VelocityTracker: Sendable, Equatable {
    /// Only samples this recent (s) before the newest count: older motion is
    /// not what the finger was doing when it let go.
    public static let horizon = 0.1
    /// A longer pause (s) between samples, or before the lift, means the finger
    /// stopped: what came before it is not part of the release.
    public static let maxGap = 0.04
    /// Upper bound on |v| (pt/s): one noisy sample must not launch the content.
    public static let maxSpeed = 8000.0
    /// Below this |v| (pt/s) a release is a placement, not a fling.
    public static let minFlingSpeed = 50.0
    /// At most this many samples are kept: a client repeating one timestamp must
    /// not grow the buffer (or the fit's cost) without bound.
    public static let maxSamples = 64

    private struct Sample: Sendable, Equatable {
        var time: Double
        var position: Double
    }

    private var samples: [Sample] = []

    public init() {}

    /// Samples come in client-time order; a sample older than the newest means the
    /// client's clock jumped back, and the motion before it is not comparable.
    public mutating func add(time: Double, position: Double) {
        if let newest = samples.last, time < newest.time { samples.removeAll() }
        samples.append(Sample(time: time, position: position))
        // Older samples can never be inside the window again.
        let stale = samples.prefix { time - $0.time > Self.horizon }.count
        let excess = max(0, samples.count - stale - Self.maxSamples)
        samples.removeFirst(stale + excess)
    }

    public var sampleCount: Int { samples.count }

    public mutating func reset() {
        samples.removeAll()
    }

    /// Velocity (pt/s) at the newest sample, 0 when the pointer had stopped
    /// (lift more than `maxGap` after it) or was too slow to fling.
    public func velocity(liftTime: Double) -> Double {
        guard let newest = samples.last, liftTime - newest.time <= Self.maxGap else { return 0 }
        let v = fittedVelocity(window())
        // Degenerate timestamps (a spread that underflows, say) give no velocity, not NaN.
        guard v.isFinite else { return 0 }
        let clamped = min(max(v, -Self.maxSpeed), Self.maxSpeed)
        return abs(clamped) < Self.minFlingSpeed ? 0 : clamped
    }

    /// `velocity(liftTime:)` for a lift at the newest sample: what a finger that let go now would
    /// release (0 without samples).
    public var newestVelocity: Double { samples.last.map { velocity(liftTime: $0.time) } ?? 0 }

    /// The newest samples back to the first gap longer than `maxGap`.
    private func window() -> ArraySlice<Sample> {
        var first = samples.endIndex - 1
        while first > samples.startIndex, samples[first].time - samples[first - 1].time <= Self.maxGap {
            first -= 1
        }
        return samples[first...]
    }

    /// Quadratic least squares (linear with two distinct times, 0 with fewer),
    /// differentiated at the newest sample, so an accelerating finger releases
    /// with its instantaneous speed rather than its average.
    private func fittedVelocity(_ window: ArraySlice<Sample>) -> Double {
        guard let newest = window.last else { return 0 }
        // Times scaled to the window (τ ∈ [−1, 0]) keep the normal equations
        // well conditioned; positions relative to the newest keep them small.
        let points = window.map { ((($0.time - newest.time) / Self.horizon), $0.position - newest.position) }
        let distinctTimes = Set(points.map(\.0)).count
        if distinctTimes >= 3, let slope = quadraticSlope(points) { return slope / Self.horizon }
        if distinctTimes == 2 { return linearSlope(points) / Self.horizon }
        return 0
    }
}

/// Slope at τ = 0 of the least-squares line through `points`.
private func linearSlope(_ points: [(Double, Double)]) -> Double {
    let n = Double(points.count)
    let meanT = points.reduce(0) { $0 + $1.0 } / n
    let meanX = points.reduce(0) { $0 + $1.1 } / n
    var stt = 0.0, stx = 0.0
    for (t, x) in points {
        stt += (t - meanT) * (t - meanT)
        stx += (t - meanT) * (x - meanX)
    }
    return stx / stt
}

/// Slope at τ = 0 of the least-squares parabola x = a + b·τ + c·τ², i.e. b,
/// from the normal equations by Cramer's rule.
private func quadraticSlope(_ points: [(Double, Double)]) -> Double? {
    var s = [Double](repeating: 0, count: 5)  // Σ τ^k
    var r = [Double](repeating: 0, count: 3)  // Σ x·τ^k
    for (t, x) in points {
        var p = 1.0
        for k in 0..<5 {
            s[k] += p
            if k < 3 { r[k] += x * p }
            p *= t
        }
    }
    let det = determinant(s[0], s[1], s[2], s[1], s[2], s[3], s[2], s[3], s[4])
    guard det != 0, det.isFinite else { return nil }
    let detB = determinant(s[0], r[0], s[2], s[1], r[1], s[3], s[2], r[2], s[4])
    return detB / det
}

private func determinant(
    _ a: Double, _ b: Double, _ c: Double,
    _ d: Double, _ e: Double, _ f: Double,
    _ g: Double, _ h: Double, _ i: Double
) -> Double {
    a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
}
