/// Fits a `Track` to a motion known in closed form (a fling, a bounce, a snap): knots are added
/// where the curve between two knots strays from the motion, until it stays within `tolerance`
/// everywhere. The motion is smooth between `breaks` (where one simulation hands over to the
/// next, its velocity may jump), so each break gets a corner: two knots, one velocity each side.
public enum TrackFitter {
    /// The spec's bound on what the page shows (0.25 pt) less a margin for the checks between
    /// sampled times.
    public static let tolerance = 0.2
    /// A motion that needs more is not sent as a track (the frames carry its offsets instead).
    public static let maxKnots = 256
    /// Nor is one longer than this (s): ours rest within seconds.
    public static let longest = 60.0
    /// A track starting or ending further out than this (pt) goes in float64 (`Track.wide`):
    /// float32 places a point there only to 1/64 pt, and a curve adds four of them.
    public static let farthest = Double(1 << 17)
    /// The curve is checked at least this often (s), and at 7 points per segment at least.
    static let checkSpacing = 0.004
    /// Shorter segments are not split again (a motion that needs them is not smooth).
    static let shortestSegment = 0.0002
    /// Step of the numeric derivatives (s).
    static let derivativeStep = 1e-5

    /// A track for `position` from `start` to `end` (room times), smooth between `breaks`;
    /// nil when it would take more than `maxKnots`. `position` may jump at a break or at `end`
    /// (a motion handing over to a rest a fraction of a point away): the track jumps there too,
    /// with two knots at that time. With `wrap`, `position` runs on past a turn and the track
    /// shows it wrapped (`Track.Wrap`); the fit is of the curve as it runs on.
    public static func fit(
        from start: Double, to end: Double, breaks: [Double] = [], axes: Track.Axes = .x,
        wrap: Track.Wrap? = nil, tolerance: Double = Self.tolerance, position: (Double) -> Point
    ) -> Track? {
        guard start.isFinite, end.isFinite, end - start <= longest else { return nil }
        let end = max(end, start)
        let ends = [position(start), position(end)]
        let wide = !ends.allSatisfy { abs($0.x) <= farthest && abs($0.y) <= farthest }
        let cuts = [start] + breaks.filter { $0 > start && $0 < end }.sorted() + [end]
        var knots: [Track.Knot] = []
        for (a, b) in zip(cuts, cuts.dropFirst()) where b > a {
            let first = knot(at: a, from: start, wide: wide, position: position, side: .right)
            let last = knot(at: b, from: start, wide: wide, position: position, side: .left)
            knots.append(first)
            guard
                subdivide(first, last, from: start, wide: wide, tolerance: tolerance, position: position, into: &knots)
            else {
                return nil
            }
            knots.append(last)
            if knots.count >= maxKnots { return nil }
        }
        // Where it rests, exactly (the motion before may stop a fraction short and jump).
        let rest = position(end)
        let restKnot = Track.Knot(t: end - start, x: rest.x, y: rest.y, vx: 0, vy: 0, wide: wide)
        if let last = knots.last, restKnot.x == last.x, restKnot.y == last.y {
            knots[knots.count - 1].vx = 0
            knots[knots.count - 1].vy = 0
        } else {
            knots.append(restKnot)
        }
        guard knots.allSatisfy({ [$0.t, $0.x, $0.y, $0.vx, $0.vy].allSatisfy(\.isFinite) }) else { return nil }
        return Track(start: start, axes: axes, knots: knots, wrap: wrap, wide: wide)
    }

    private enum Side { case left, right, centre }

    /// The knot at room time `time`: at a piece's start the motion's value there and its velocity
    /// from the right; at its end the value and velocity it tends to from the left (what it would
    /// be without a jump there); inside, both from either side (second order).
    private static func knot(
        at time: Double, from start: Double, wide: Bool, position: (Double) -> Point, side: Side
    ) -> Track.Knot {
        let h = derivativeStep
        let p: Point, v: Point
        switch side {
        case .centre:
            p = position(time)
            let a = position(time - h), b = position(time + h)
            v = Point(x: (b.x - a.x) / (2 * h), y: (b.y - a.y) / (2 * h))
        case .right:
            p = position(time)
            let a = position(time + h), b = position(time + 2 * h)
            v = Point(x: (-3 * p.x + 4 * a.x - b.x) / (2 * h), y: (-3 * p.y + 4 * a.y - b.y) / (2 * h))
        case .left:
            // The parabola through the three samples before `time`, at `time`.
            let p1 = position(time - h), p2 = position(time - 2 * h), p3 = position(time - 3 * h)
            p = Point(x: 3 * p1.x - 3 * p2.x + p3.x, y: 3 * p1.y - 3 * p2.y + p3.y)
            v = Point(x: (2.5 * p1.x - 4 * p2.x + 1.5 * p3.x) / h, y: (2.5 * p1.y - 4 * p2.y + 1.5 * p3.y) / h)
        }
        return Track.Knot(t: time - start, x: p.x, y: p.y, vx: v.x, vy: v.y, wide: wide)
    }

    /// Appends the knots strictly between `a` and `b` that keep the curve within `tolerance`;
    /// false when that would take more than `maxKnots`.
    private static func subdivide(
        _ a: Track.Knot, _ b: Track.Knot, from start: Double, wide: Bool, tolerance: Double,
        position: (Double) -> Point, into knots: inout [Track.Knot]
    ) -> Bool {
        let length = b.t - a.t
        guard length > shortestSegment, strays(a, b, from: start, wide: wide, beyond: tolerance, position: position)
        else { return true }
        if knots.count >= maxKnots { return false }
        let mid = knot(at: start + a.t + length / 2, from: start, wide: wide, position: position, side: .centre)
        guard subdivide(a, mid, from: start, wide: wide, tolerance: tolerance, position: position, into: &knots)
        else { return false }
        knots.append(mid)
        return subdivide(mid, b, from: start, wide: wide, tolerance: tolerance, position: position, into: &knots)
    }

    /// Whether the segment's curve is further than `tolerance` from the motion at a checked time
    /// (the first such time answers: a long segment that will be split is not checked through).
    private static func strays(
        _ a: Track.Knot, _ b: Track.Knot, from start: Double, wide: Bool, beyond tolerance: Double,
        position: (Double) -> Point
    ) -> Bool {
        let segment = Track(start: start, axes: .both, knots: [a, b], wide: wide)
        let n = max(8, Int(((b.t - a.t) / checkSpacing).rounded(.up)))
        for i in 1..<n {
            let time = start + a.t + (b.t - a.t) * Double(i) / Double(n)
            let p = position(time), q = segment.offset(at: time)
            if abs(p.x - q.x) > tolerance || abs(p.y - q.y) > tolerance { return true }
        }
        return false
    }
}
