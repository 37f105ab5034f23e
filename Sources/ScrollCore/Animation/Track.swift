/// A layer's offset over room time (docs/PROTOCOL.md, "Tracks"): the server sends the motion once
/// and the page plays it at its own display rate, instead of one offset per frame tick.
///
/// Knots at times after `start`; between two knots the offset is the cubic Hermite curve through
/// their positions with their velocities. Two knots at the same time make a corner (a motion handing
/// over to the next with another velocity). Before the first knot and after the last the offset
/// holds. Every number is rounded to float32 when made, as it goes on the wire, so the server
/// evaluates exactly the track the page evaluates.
public struct Track: Sendable, Equatable {
    /// Which coordinates the track moves; the other stays 0.
    public enum Axes: UInt8, Sendable {
        case x = 1
        case y = 2
        case both = 3
    }

    public struct Knot: Sendable, Equatable {
        /// Seconds after the track's start.
        public var t: Double
        public var x, y: Double
        /// pt/s.
        public var vx, vy: Double

        public init(t: Double, x: Double, y: Double = 0, vx: Double, vy: Double = 0) {
            self.t = Self.f32(t)
            (self.x, self.y, self.vx, self.vy) = (Self.f32(x), Self.f32(y), Self.f32(vx), Self.f32(vy))
        }

        static func f32(_ v: Double) -> Double { Double(Float(v)) }
    }

    /// Room time of t = 0 (seconds since the room was made).
    public var start: Double
    public var axes: Axes
    /// At least one; times never decrease.
    public private(set) var knots: [Knot]

    public init(start: Double, axes: Axes, knots: [Knot]) {
        precondition(!knots.isEmpty, "a track has a knot")
        precondition(zip(knots, knots.dropFirst()).allSatisfy { $0.t <= $1.t }, "knot times never decrease")
        self.start = start
        self.axes = axes
        self.knots = knots.map { k in
            var k = k
            if axes == .x { (k.y, k.vy) = (0, 0) }
            if axes == .y { (k.x, k.vx) = (0, 0) }
            return k
        }
    }

    /// Room time at which the offset stops changing.
    public var end: Double { start + knots[knots.count - 1].t }

    /// The offset at room time `time`.
    public func offset(at time: Double) -> Point {
        let s = time - start
        let first = knots[0], last = knots[knots.count - 1]
        if s <= first.t { return Point(x: first.x, y: first.y) }
        if s >= last.t { return Point(x: last.x, y: last.y) }
        // The last knot at or before s: the next one is then strictly after it.
        var lo = 0, hi = knots.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if knots[mid].t <= s { lo = mid } else { hi = mid }
        }
        let a = knots[lo], b = knots[hi]
        let h = b.t - a.t
        let u = (s - a.t) / h
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        return Point(
            x: h00 * a.x + h10 * h * a.vx + h01 * b.x + h11 * h * b.vx,
            y: h00 * a.y + h10 * h * a.vy + h01 * b.y + h11 * h * b.vy)
    }
}
