import Foundation

/// The items' icons, drawn from shapes (no image files): a coloured tile with a white glyph.
/// Each glyph is one shape per part, never overlapping, because a leaving item fades and
/// alpha applies to each shape: an overlap would show.
enum CarouselIcon: String, Sendable, CaseIterable {
    case sun, moon, star, heart, leaf, custom, added

    /// The default row (WIDGETS.md §3: five named items, then "Custom").
    static let defaults: [(name: String, icon: CarouselIcon)] = [
        ("Sun", .sun), ("Moon", .moon), ("Star", .star), ("Heart", .heart), ("Leaf", .leaf), ("Custom", .custom),
    ]

    var tile: Color {
        switch self {
        case .sun: Color(hex: 0xFF9F0A)
        case .moon: Color(hex: 0x5E5CE6)
        case .star: Color(hex: 0x0A84FF)
        case .heart: Color(hex: 0xFF375F)
        case .leaf: Color(hex: 0x30A14E)
        case .custom: Color(hex: 0x8E8E93)
        case .added: Color(hex: 0x0F9FB5)
        }
    }

    /// The glyph, in white, centred at `c` on a tile `size` wide. Shapes are computed once, in
    /// % of the tile (the frame path only scales and moves them).
    func drawGlyph(into list: inout DisplayList, centre c: Point, size: Double) {
        let u = size / 100
        func p(_ q: Point) -> Point { Point(x: c.x + q.x * u, y: c.y + q.y * u) }
        list.setFill(Color(hex: 0xFFFFFF))
        if self == .sun {
            list.fillCircle(center: c, radius: 20 * u)
            for ray in Self.sunRays { list.fillCircle(center: p(ray), radius: 5 * u) }
            return
        }
        for shape in Self.smallShapes[self] ?? [] { list.fillPolygonSmall(center: c, unit: size / 200, points: shape) }
    }

    /// `shapes` in half-percents of the tile, as `fillPolygonSmall` sends them (the glyphs lie
    /// within ±50 %, so ±100 units of 0.5 %: a point is off by at most a quarter percent, 0.2 pt).
    private static let smallShapes: [CarouselIcon: [[(x: Int8, y: Int8)]]] = shapes.mapValues { polygons in
        polygons.map { $0.map { (x: Int8(($0.x * 2).rounded()), y: Int8(($0.y * 2).rounded())) } }
    }

    private static let sunRays: [Point] = (0..<8).map { k in
        let a = Double(k) * .pi / 4
        return Point(x: 34 * cos(a), y: 34 * sin(a))
    }

    /// Each glyph's polygons, in % of the tile around its centre.
    private static let shapes: [CarouselIcon: [[Point]]] = {
        func q(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
        let star = (0..<10).map { k in
            let a = -Double.pi / 2 + Double(k) * .pi / 5, r = k % 2 == 0 ? 34.0 : 14.0
            return q(r * cos(a), r * sin(a))
        }
        // The classic heart curve.
        let heart = (0..<32).map { k in
            let t = Double(k) * .pi / 16
            let x = 16 * pow(sin(t), 3), y = 13 * cos(t) - 5 * cos(2 * t) - 2 * cos(3 * t) - cos(4 * t)
            return q(1.9 * x, -1.9 * y - 2)
        }
        // A lens (an upper arc left to right, a lower one back) and a stem, tilted 40°.
        let (c40, s40) = (cos(-0.7), sin(-0.7))
        func tilted(_ x: Double, _ y: Double) -> Point { q(x * c40 - y * s40, x * s40 + y * c40) }
        let upper = (0...8).map { k in tilted(-32 + 64 * Double(k) / 8, -20 * sin(Double(k) * .pi / 8)) }
        let lower = (1..<8).map { k in tilted(32 - 64 * Double(k) / 8, 20 * sin(Double(k) * .pi / 8)) }
        let (a, b) = (4.0, 26.0)  // the plus: half a bar's width, half its length
        let plus = [
            q(-a, -b), q(a, -b), q(a, -a), q(b, -a), q(b, a), q(a, a), q(a, b), q(-a, b), q(-a, a), q(-b, a),
            q(-b, -a), q(-a, -a),
        ]
        return [
            .moon: [crescent], .star: [star], .heart: [heart],
            .leaf: [upper + lower, [tilted(-32, 0), tilted(-44, -2.5), tilted(-44, 2.5)]],
            .custom: [plus], .added: [[q(0, -30), q(30, 0), q(0, 30), q(-30, 0)]],
        ]
    }()

    /// A crescent: the part of a circle r 30 outside a circle r 26 centred at (14, −10), as
    /// one polygon (the outer arc between the two circles' intersections, then the inner one back).
    private static let crescent: [Point] = {
        let r0 = 30.0, r1 = 26.0, c1 = Point(x: 14, y: -10)
        let d = (c1.x * c1.x + c1.y * c1.y).squareRoot()
        let along = (r0 * r0 - r1 * r1 + d * d) / (2 * d), across = (r0 * r0 - along * along).squareRoot()
        let mid = Point(x: along * c1.x / d, y: along * c1.y / d)
        let i1 = Point(x: mid.x - across * c1.y / d, y: mid.y + across * c1.x / d)
        let i2 = Point(x: mid.x + across * c1.y / d, y: mid.y - across * c1.x / d)
        func angle(_ q: Point, from o: Point) -> Double { atan2(q.y - o.y, q.x - o.x) }
        var (a0, a1) = (angle(i1, from: Point(x: 0, y: 0)), angle(i2, from: Point(x: 0, y: 0)))
        if a1 < a0 { a1 += 2 * .pi }
        var (b0, b1) = (angle(i2, from: c1), angle(i1, from: c1))
        if b1 > b0 { b1 -= 2 * .pi }
        let outer = (0...16).map { k -> Point in
            let a = a0 + (a1 - a0) * Double(k) / 16
            return Point(x: r0 * cos(a), y: r0 * sin(a))
        }
        let inner = (1..<12).map { k -> Point in
            let a = b0 + (b1 - b0) * Double(k) / 12
            return Point(x: c1.x + r1 * cos(a), y: c1.y + r1 * sin(a))
        }
        return outer + inner
    }()
}
