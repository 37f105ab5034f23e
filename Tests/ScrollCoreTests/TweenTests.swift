import Testing

@testable import ScrollCore

/// Display op 0x17 `tween` (docs/PROTOCOL.md, "Display list"): a save, then a move, a scale about
/// a point and a fade that run over room time along a timing curve, holding before and after.
@Suite struct TweenTests {
    static let full = Tween(
        start: 2, duration: 0.5, curve: .easeInOut,
        move: Tween.Move(from: Point(x: -78, y: 0), to: Point(x: 0, y: -75)),
        scale: Tween.Scale(center: Point(x: 195, y: 105), from: 0, to: 1), fade: Tween.Fade(from: 1, to: 0))

    @Test(
        "15 bytes with a curve CSS names, 16 a move, 16 a scale, 8 a fade, 16 more for another curve; decodes as written"
    )
    func layout() throws {
        var l = DisplayList()
        l.tween(Self.full)
        #expect(l.bytes.count == 15 + 16 + 16 + 8 && l.bytes[0] == 0x17)
        #expect(try DisplayListDecoder.decode(l.bytes) == [.tween(Self.full)])
        var fade = DisplayList()
        let linear = Tween(start: 1e9 + 0.25, duration: 0.3, fade: Tween.Fade(from: 0, to: 1))
        fade.tween(linear)
        #expect(fade.bytes.count == 15 + 16 + 8)
        // The start goes as float64: a room days old still starts on its microsecond.
        #expect(try DisplayListDecoder.decode(fade.bytes) == [.tween(linear)])
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(Array(l.bytes.dropLast())) }
    }

    @Test("refused: a negative or non-finite duration, a start not finite, an unknown part, a curve whose x leaves 0…1")
    func refused() {
        func bytes(_ edit: (inout [UInt8]) -> Void) -> [UInt8] {
            var l = DisplayList()
            l.tween(
                Tween(
                    start: 1, duration: 0.5, curve: CubicBezierEasing(0.5, 2, 0.5, -1), fade: Tween.Fade(from: 0, to: 1)
                ))
            var b = l.bytes
            edit(&b)
            return b
        }
        func f32(_ v: Float) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        // Byte 1: start (f64), 9: duration (f32), 13: the curve (0 and four f32), 30: the parts.
        #expect((try? DisplayListDecoder.decode(bytes { _ in })) != nil, "the curve's y may leave 0…1, as CSS's")
        #expect(throws: DisplayListDecodingError.self) {
            try DisplayListDecoder.decode(bytes { $0.replaceSubrange(9..<13, with: f32(-1)) })
        }
        #expect(throws: DisplayListDecodingError.self) {
            try DisplayListDecoder.decode(bytes { $0.replaceSubrange(9..<13, with: f32(.infinity)) })
        }
        #expect(throws: DisplayListDecodingError.self) {
            try DisplayListDecoder.decode(
                bytes { $0.replaceSubrange(1..<9, with: withUnsafeBytes(of: Double.nan.bitPattern) { Array($0) }) })
        }
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(bytes { $0[30] |= 8 }) }
        #expect(throws: DisplayListDecodingError.self) {
            try DisplayListDecoder.decode(bytes { $0.replaceSubrange(14..<18, with: f32(1.5)) })
        }
    }

    @Test("before its start it is at its from, from its end on at its to; half way along ease-in-out, half way")
    func progress() {
        let t = Self.full
        #expect(t.state(at: 1).dx == -78 && t.state(at: 1).scale == 0 && t.state(at: 1).alpha == 1)
        #expect(t.state(at: 2.5) == (0, -75, 1, 0) && t.state(at: 100) == (0, -75, 1, 0))
        let half = t.state(at: 2.25)
        #expect(abs(half.dx + 39) < 1e-5 && abs(half.dy + 37.5) < 1e-5 && abs(half.scale - 0.5) < 1e-7)
        // Ease-in-out is slow at first: a tenth of the way in time, under 3 % of the way.
        #expect(t.progress(at: 2.05) < 0.03 && t.progress(at: 2.05) > 0)
        // No duration: at its end from its start; linear: as far as the time.
        let jump = Tween(start: 3, duration: 0, fade: Tween.Fade(from: 0.2, to: 0.8))
        #expect(jump.state(at: 2.999).alpha == Double(Float(0.2)) && jump.state(at: 3).alpha == Double(Float(0.8)))
        let linear = Tween(start: 0, duration: 1, move: Tween.Move(from: .zero, to: Point(x: 100, y: 0)))
        #expect(abs(linear.state(at: 0.25).dx - 25) < 1e-6)
        // A fade beyond 0…1 is clamped (the op says so: canvas would ignore such an alpha).
        #expect(Tween(start: 0, duration: 1, fade: Tween.Fade(from: 2, to: -1)).state(at: 0).alpha == 1)
    }

    @Test("SVG: a lens inside a tween sizes its ops by where the tween's move shows them")
    func lensSeesTheMove() throws {
        // A lens 1.2 at the focus, 0.3 78 pt away; its centre 78 pt right of the focus, moved in.
        var l = DisplayList()
        l.tween(Tween(start: 0, duration: 1, move: Tween.Move(from: .zero, to: Point(x: -78, y: 0))))
        l.lens(
            Lens(
                center: Point(x: 273, y: 50), focus: 195,
                knots: [Lens.Knot(distance: 0, scale: 1.2), Lens.Knot(distance: 78, scale: 0.3)]))
        l.fillRect(Rect(x: 263, y: 40, width: 20, height: 20))
        l.restore()
        l.restore()
        func side(at time: Double) throws -> Double {
            try #require(PaintedShapes.rects(l, time: time).first).width
        }
        let (before, after) = (try side(at: 0), try side(at: 1))
        #expect(abs(before - 6) < 1e-4 && abs(after - 24) < 1e-4, "\(before) → \(after)")
        let svg = try SVGRenderer.render([Layer(id: 1, list: l)], size: Size(width: 390, height: 100), time: 1)
        #expect(svg.contains("translate(-78,0)") && svg.contains("scale(1.2)"), "\(svg)")
    }
}
