/// `DisplayList.lens`'s operands: a save, then a transform for the ops up to the matching
/// restore that depends on where the layer shows `center`: with d = |center.x + ox − focus| (ox the
/// layer's offset, x), they are scaled by s(d) about `center` and moved down by dy(d), s and dy
/// piecewise linear through `knots` (in order of d; before the first and after the last they
/// hold; where two knots share a d the later applies from it on). The carousel's items grow as
/// they near its centre this way while its layer slides: a glide is one track the page plays, the
/// sizes worked out at its display time (docs/PROTOCOL.md, "Display list").
public struct Lens: Sendable, Equatable {
    public struct Knot: Sendable, Equatable {
        public var distance, scale, dy: Double
        public init(distance: Double, scale: Double, dy: Double = 0) {
            self.distance = distance; self.scale = scale; self.dy = dy
        }
    }

    public var center: Point
    /// In the layer's own coordinates (the offset does not move it).
    public var focus: Double
    public var knots: [Knot]

    public init(center: Point, focus: Double, knots: [Knot]) {
        self.center = center; self.focus = focus; self.knots = knots
    }

    /// Scale and downward shift with the layer at horizontal `offset`.
    public func transform(offset: Double) -> (scale: Double, dy: Double) {
        Self.at(abs(center.x + offset - focus), knots)
    }

    /// The knots' piecewise-linear value at `d` (the same steps as Public/js/painter.js).
    static func at(_ d: Double, _ knots: [Knot]) -> (scale: Double, dy: Double) {
        guard let first = knots.first else { return (1, 0) }
        if d < first.distance { return (first.scale, first.dy) }
        // The last knot at or before d: where two share a d, the later.
        var i = 0
        while i + 1 < knots.count && knots[i + 1].distance <= d { i += 1 }
        guard i + 1 < knots.count else { return (knots[i].scale, knots[i].dy) }
        let a = knots[i], b = knots[i + 1]
        let u = (d - a.distance) / (b.distance - a.distance)
        return (a.scale + (b.scale - a.scale) * u, a.dy + (b.dy - a.dy) * u)
    }
}
