/// One stretch of the offset's path that `ScrollAxis.advance(to:visiting:)` went through:
/// part of a running motion up to `end`, or a jump where a motion handed over (a fling
/// that rests on its asymptote ≤ 0.5 pt on, a spring that stops on its target).
///
/// Owners that must see every value the offset passes (a tick per click) follow the spans
/// instead of sampling frames, so what they see does not depend on the frame rate.
public struct AxisSpan: Sendable {
    let motion: AxisMotion?
    let edges: AxisEdges
    /// Scene time at which this span ends.
    public let end: Double
    /// The offset at `end`.
    public let endOffset: Double

    /// The offset at `time` (within the span); a jump is at its end offset.
    public func offset(at time: Double) -> Double {
        guard let motion else { return endOffset }
        return edges.limit(motion.position(at: min(time, end)))
    }

    /// When the offset passes `x` on this span's motion; a jump passes everything at `end`.
    ///
    /// The root is searched over the motion's whole life, never over the frame that happens
    /// to contain it, so the answer depends only on the motion. Assumes a monotonic motion,
    /// as deceleration and easing are (a spring may pass `x` more than once).
    public func time(reaching x: Double) -> Double {
        guard let motion else { return end }
        func position(_ t: Double) -> Double { edges.limit(motion.position(at: t)) }
        let rising = position(motion.end) >= position(motion.start)
        var lo = motion.start, hi = motion.end
        // 64 halvings reach the resolution of a Double for any motion shorter than years.
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if (position(mid) < x) == rising { lo = mid } else { hi = mid }
        }
        return min(hi, end)
    }
}
