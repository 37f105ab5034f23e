import Testing

@testable import ScrollCore

/// Display op 0x15 (docs/PROTOCOL.md, "Display list"): ops scaled and moved by where the layer
/// shows a point, and the carousel's items drawn so.
struct LensTests {
    static let knots = [
        Lens.Knot(distance: 0, scale: 1.2), Lens.Knot(distance: 234, scale: 0.3, dy: 10),
        Lens.Knot(distance: 234, scale: 0.6),
    ]

    @Test("lens is 14 bytes and 12 a knot, and decodes as written")
    func layout() throws {
        // Numbers float32 holds exactly.
        let knots = [Lens.Knot(distance: 0, scale: 1.25), Lens.Knot(distance: 234, scale: 0.25, dy: 10)]
        let lens = Lens(center: Point(x: 39, y: 495), focus: 195, knots: knots)
        var l = DisplayList()
        l.lens(lens)
        #expect(l.bytes.count == 14 + 12 * 2 && l.bytes[0] == 0x15)
        #expect(try DisplayListDecoder.decode(l.bytes) == [.lens(lens)])
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(Array(l.bytes.dropLast())) }
    }

    @Test("linear between knots, held past the last; where two share a distance the later applies from it")
    func knots() {
        let lens = Lens(center: Point(x: 195, y: 0), focus: 195, knots: Self.knots)
        #expect(lens.transform(offset: 0) == (1.2, 0))
        // 117 pt either side: half way to the second knot.
        let half = lens.transform(offset: -117), other = lens.transform(offset: 117)
        #expect(abs(half.scale - 0.75) < 1e-12 && abs(half.dy - 5) < 1e-12 && half == other)
        #expect(lens.transform(offset: -233.999).scale < 0.31)
        #expect(lens.transform(offset: -234) == (0.6, 0) && lens.transform(offset: 400) == (0.6, 0))
    }

    /// The scale of each of the carousel's items, ones first, and its name's shift, as the layer shows them.
    static func sizes(_ carousel: Carousel) throws -> [(scale: Double, dy: Double)] {
        var list = DisplayList()
        carousel.render(into: &list, theme: .light)
        let lenses = try DisplayListDecoder.decode(list.bytes).compactMap {
            if case .lens(let l) = $0 { l } else { nil }
        }
        return lenses.map { $0.transform(offset: carousel.layerOffset.x) }
    }

    @Test("the carousel at rest on Star: tiles 0.6, 0.9, 1.2, 0.9, 0.6, Custom off screen; names half a tile lower")
    func carouselAtRest() throws {
        let carousel = Carousel(frame: CarouselScene.carouselFrame)
        let sizes = try Self.sizes(carousel)
        // Two lenses an item: the tile's, then the name's (scale 1).
        #expect(sizes.count == 12)
        let tiles = stride(from: 0, to: 12, by: 2).map { sizes[$0].scale }
        let expected = [0.6, 0.9, 1.2, 0.9, 0.6, 0.6]
        for (got, want) in zip(tiles, expected) { #expect(abs(got - want) < 1e-6, "\(tiles)") }
        // The tile is (cell − 10) pt at scale 1: a name sits half the scaled tile below the centre.
        let side = carousel.cell - 10
        for k in 0..<6 {
            #expect(sizes[2 * k + 1].scale == 1)
            #expect(abs(sizes[2 * k + 1].dy - side * expected[k] / 2) < 1e-4)
        }
        // The same as the seed's scale for each slot at this offset.
        for (k, got) in tiles.enumerated() {
            let seed = Carousel.scale(slot: Double(k), offset: carousel.contentOffset, cell: carousel.cell)
            #expect(abs(got - seed) < 1e-6 || (k == 5 && seed == 0.6))
        }
    }
}
