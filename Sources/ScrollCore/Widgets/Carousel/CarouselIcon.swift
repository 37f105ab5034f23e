import Foundation

/// The items' icons, drawn from shapes (no image files): a coloured tile with a white glyph.
enum CarouselIcon: Sendable, CaseIterable {
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

    /// The glyph, in white, centred at `c` on a tile `size` wide (coordinates in % of it).
    func drawGlyph(into list: inout DisplayList, centre c: Point, size: Double) {
        let u = size / 100
        func p(_ x: Double, _ y: Double) -> Point { Point(x: c.x + x * u, y: c.y + y * u) }
        list.setFill(Color(hex: 0xFFFFFF))
        switch self {
        case .sun:
            list.fillCircle(center: c, radius: 20 * u)
            for k in 0..<8 {
                let a = Double(k) * .pi / 4
                list.fillCircle(center: p(34 * cos(a), 34 * sin(a)), radius: 5 * u)
            }
        case .moon:
            list.fillCircle(center: c, radius: 30 * u)
            list.setFill(tile)
            list.fillCircle(center: p(14, -10), radius: 26 * u)
        case .star:
            list.fillPolygon(
                (0..<10).map { k in
                    let a = -Double.pi / 2 + Double(k) * .pi / 5, r = k % 2 == 0 ? 34.0 : 14.0
                    return p(r * cos(a), r * sin(a))
                })
        case .heart:
            list.fillCircle(center: p(-13, -8), radius: 15 * u)
            list.fillCircle(center: p(13, -8), radius: 15 * u)
            list.fillPolygon([p(-27, -2), p(27, -2), p(0, 28)])
        case .leaf:
            // A lens (an upper arc left to right, a lower one back) with a stem, tilted 40°.
            let (c40, s40) = (cos(-0.7), sin(-0.7))
            func tilted(_ x: Double, _ y: Double) -> Point { p(x * c40 - y * s40, x * s40 + y * c40) }
            let upper = (0...8).map { k in tilted(-32 + 64 * Double(k) / 8, -20 * sin(Double(k) * .pi / 8)) }
            let lower = (1..<8).map { k in tilted(32 - 64 * Double(k) / 8, 20 * sin(Double(k) * .pi / 8)) }
            list.fillPolygon(upper + lower)
            list.fillPolygon([tilted(-30, -2), tilted(-44, -2), tilted(-44, 3), tilted(-30, 3)])
        case .custom:
            list.fillRect(Rect(x: c.x - 4 * u, y: c.y - 26 * u, width: 8 * u, height: 52 * u))
            list.fillRect(Rect(x: c.x - 26 * u, y: c.y - 4 * u, width: 52 * u, height: 8 * u))
        case .added:
            list.fillPolygon([p(0, -30), p(30, 0), p(0, 30), p(-30, 0)])
        }
    }
}
