/// A layer's offset over room time (docs/PROTOCOL.md, "Tracks"): the server sends the motion once
/// and the page plays it at its own display rate, instead of one offset per frame tick.
///
/// Knots at times after `start`; between two knots the offset is the cubic Hermite curve through
/// their positions with their velocities, or, in an eased track, the move from one knot's position
/// to the next's along the next's timing curve (a CSS keyframe's timing function). Two knots at the
/// same time make a corner (a motion handing over to the next with another velocity). Before the
/// first knot and after the last the offset holds. Every number is rounded to float32 when made,
/// as it goes on the wire, so the server evaluates exactly the track the page evaluates.
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
        /// pt/s (not sent in an eased track).
        public var vx, vy: Double
        /// In an eased track, the timing curve of the move that ends here: 0 linear, k the track's
        /// `curves[k − 1]`.
        public var curve: UInt8

        /// `wide`: every number kept in float64 (a track far from the origin, or fast).
        public init(
            t: Double, x: Double, y: Double = 0, vx: Double = 0, vy: Double = 0, curve: UInt8 = 0, wide: Bool = false
        ) {
            (self.t, self.x, self.y, self.vx, self.vy, self.curve) = (t, x, y, vx, vy, curve)
            if !wide {
                (self.t, self.x, self.y) = (Self.f32(t), Self.f32(x), Self.f32(y))
                (self.vx, self.vy) = (Self.f32(vx), Self.f32(vy))
            }
        }

        static func f32(_ v: Double) -> Double { Double(Float(v)) }
    }

    /// A track whose positions run on past one turn (a roller's column turning 99 times is one
    /// line, not 99 jumps): each moved coordinate `p` is shown as `upper − ((upper − p) mod period)`,
    /// within (upper − period, upper]. What is drawn at `p` and at `p ± period` must look the same.
    public struct Wrap: Sendable, Equatable {
        public var upper: Double
        /// > 0.
        public var period: Double

        public init(upper: Double, period: Double) {
            precondition(period > 0 && period.isFinite && upper.isFinite, "a wrap has a finite period > 0")
            (self.upper, self.period) = (Knot.f32(upper), Knot.f32(period))
        }

        /// The same floating-point steps as track.js, so both show the same point.
        public func shown(_ p: Double) -> Double {
            let d = upper - p
            return upper - (d - (d / period).rounded(.down) * period)
        }
    }

    /// Room time of t = 0 (seconds since the room was made).
    public var start: Double
    public var axes: Axes
    /// At least one; times never decrease.
    public private(set) var knots: [Knot]
    /// Nil: the offset is the curve's, as it is.
    public var wrap: Wrap?
    /// Its knots go as float64, not float32 (`TrackFitter.farthest`): float32 places a point 2¹⁷ pt
    /// out only to 1/64 pt, and a time only to ~60 ns, in which a roll of millions of turns
    /// (billions of points a second) moves tens of points.
    public private(set) var wide: Bool
    /// Nil: Hermite curves through the knots' velocities. Else an eased track: the timing curves
    /// its knots name (float32, as sent), so a motion made of eased moves (a roller's column) is
    /// sent exactly, a knot a move, not fitted.
    public private(set) var curves: [CubicBezierEasing]?

    public init(
        start: Double, axes: Axes, knots: [Knot], wrap: Wrap? = nil, wide: Bool = false,
        curves: [CubicBezierEasing]? = nil
    ) {
        precondition(!knots.isEmpty, "a track has a knot")
        precondition(zip(knots, knots.dropFirst()).allSatisfy { $0.t <= $1.t }, "knot times never decrease")
        precondition(
            curves.map { c in c.count <= Self.mostCurves && knots.allSatisfy { Int($0.curve) <= c.count } } ?? true,
            "an eased track's knots name its curves")
        self.start = start
        self.axes = axes
        self.wrap = wrap
        self.wide = wide
        self.curves = curves?.map(\.float32)
        self.knots = knots.map { k in
            var k = Knot(t: k.t, x: k.x, y: k.y, vx: k.vx, vy: k.vy, curve: curves == nil ? 0 : k.curve, wide: wide)
            if curves != nil { (k.vx, k.vy) = (0, 0) }
            if axes == .x { (k.y, k.vy) = (0, 0) }
            if axes == .y { (k.x, k.vx) = (0, 0) }
            return k
        }
    }

    /// An eased track names at most this many curves (one byte on the wire, 0 is linear).
    public static let mostCurves = 255

    /// Room time at which the offset stops changing.
    public var end: Double { start + knots[knots.count - 1].t }

    /// Where it rests: the last knot, as shown.
    public var rest: Point { shown(knots[knots.count - 1].x, knots[knots.count - 1].y) }

    /// The offset at room time `time`.
    public func offset(at time: Double) -> Point {
        let s = time - start
        let first = knots[0], last = knots[knots.count - 1]
        if s <= first.t { return shown(first.x, first.y) }
        if s >= last.t { return shown(last.x, last.y) }
        // The last knot at or before s: the next one is then strictly after it.
        var lo = 0, hi = knots.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if knots[mid].t <= s { lo = mid } else { hi = mid }
        }
        let a = knots[lo], b = knots[hi]
        let h = b.t - a.t
        let u = (s - a.t) / h
        if let curves {
            let f = b.curve == 0 ? u : curves[Int(b.curve) - 1].value(at: u)
            return shown(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
        }
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        return shown(
            h00 * a.x + h10 * h * a.vx + h01 * b.x + h11 * h * b.vx,
            h00 * a.y + h10 * h * a.vy + h01 * b.y + h11 * h * b.vy)
    }

    /// A point of the curve as the layer shows it: wrapped on the axes it moves.
    private func shown(_ x: Double, _ y: Double) -> Point {
        guard let wrap else { return Point(x: x, y: y) }
        return Point(x: axes == .y ? x : wrap.shown(x), y: axes == .x ? y : wrap.shown(y))
    }
}

extension Track {
    /// A move ending at `time` (room time) at `offset` along `curve`, from the keyframe before.
    public struct Keyframe: Sendable, Equatable {
        public var time: Double
        public var offset: Point
        /// The first keyframe's is not used.
        public var curve: CubicBezierEasing

        public init(time: Double, offset: Point, curve: CubicBezierEasing = .linear) {
            (self.time, self.offset, self.curve) = (time, offset, curve)
        }
    }

    /// Eased moves, in order, as keyframes: a move that starts where the one before ended adds one
    /// knot; one that starts later holds until then (and jumps if it starts elsewhere). Moves
    /// scheduled one after the other may overlap by a rounding error (a start summed one way, the
    /// end before it another): up to `slack` is a hand-over, more is a move cut short (its curve
    /// is not followed to its end), which `move` refuses.
    public struct Keyframes: Sendable {
        public private(set) var frames: [Keyframe] = []
        public static let slack = 1e-9

        public init() {}

        /// Holding `offset` from `time` on (before any move).
        public init(holding offset: Point, from time: Double) { frames = [Keyframe(time: time, offset: offset)] }

        /// A move from `from` at `start` to `to` at `end` along `curve`; false (and nothing added)
        /// when it starts before the last move ends.
        public mutating func move(
            from: Point, at start: Double, to: Point, at end: Double, curve: CubicBezierEasing
        ) -> Bool {
            // Moved up to the last time for the whole move, its end included: a move starting
            // within `slack` before it (a rounding's 2e-13) once ended before it, and the track's
            // knots went back in time (its precondition stopped the server: all-moving's frame 39,453).
            var start = start
            if let last = frames.last {
                guard start >= last.time - Self.slack else { return false }
                start = max(start, last.time)
                if start > last.time, from != last.offset { frames.append(Keyframe(time: start, offset: last.offset)) }
                if start > last.time || from != last.offset { frames.append(Keyframe(time: start, offset: from)) }
            } else {
                frames.append(Keyframe(time: start, offset: from))
            }
            frames.append(Keyframe(time: max(end, start), offset: to, curve: curve))
            return true
        }

        /// Where it rests: a jump there at the last time, if it is not there already.
        public mutating func rest(at offset: Point) {
            guard let last = frames.last, last.offset != offset else { return }
            frames.append(Keyframe(time: last.time, offset: offset))
        }
    }

    /// An eased track through `keyframes` (times never decreasing), starting at the first: each
    /// distinct curve sent once. Nil when there are none, more than a fitted track may have
    /// (`TrackFitter.maxKnots`), more curves than a track names, or times that go back.
    public init?(axes: Axes, keyframes: [Keyframe], wrap: Wrap? = nil) {
        guard let first = keyframes.first, keyframes.count <= TrackFitter.maxKnots else { return nil }
        var curves: [CubicBezierEasing] = []
        var knots: [Knot] = []
        let wide = !keyframes.allSatisfy {
            abs($0.offset.x) <= TrackFitter.farthest && abs($0.offset.y) <= TrackFitter.farthest
        }
        for (i, k) in keyframes.enumerated() {
            var index = 0
            if i > 0, k.curve != .linear {
                if let at = curves.firstIndex(of: k.curve) {
                    index = at + 1
                } else {
                    curves.append(k.curve)
                    index = curves.count
                }
            }
            guard index <= Self.mostCurves else { return nil }
            knots.append(Knot(t: k.time - first.time, x: k.offset.x, y: k.offset.y, curve: UInt8(index), wide: wide))
        }
        // Keyframes that go back in time are a caller's bug: no track (the motion is fitted
        // instead), not the initialiser's precondition stopping the server.
        guard zip(knots, knots.dropFirst()).allSatisfy({ $0.t <= $1.t }) else { return nil }
        self.init(start: first.time, axes: axes, knots: knots, wrap: wrap, wide: wide, curves: curves)
    }
}
