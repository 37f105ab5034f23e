import ScrollCore
import Testing

/// Display ops 0x13 and 0x14 (docs/PROTOCOL.md, "Display list"): marks graded by their distance
/// from a point as shown, and a disc that starts again at given room times.
struct GradedRunPulseTests {
    static let grades = [
        GradedRun.Grade(below: 5, width: 2, height: 18, fill: Color(1, 2, 3)),
        GradedRun.Grade(below: 16, width: 1, height: 14, fill: Color(4, 5, 6, 153)),
        GradedRun.Grade(below: .infinity, width: 1, height: 4, fill: Color(4, 5, 6, 153)),
    ]

    @Test("gradedRun is 20 bytes and 16 a grade, and decodes as written (an infinite last grade too)")
    func gradedRunLayout() throws {
        let run = GradedRun(x0: 5, y: 95, dx: 10, count: 139, focus: 195, grades: Self.grades)
        var l = DisplayList()
        l.gradedRun(run)
        #expect(l.bytes.count == 20 + 16 * 3 && l.bytes[0] == 0x13)
        #expect(try DisplayListDecoder.decode(l.bytes) == [.gradedRun(run)])
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(Array(l.bytes.dropLast())) }
    }

    @Test("a mark's grade follows the layer's offset: shown at 195 + 3 it is the centre one, at 206 the next")
    func gradedByOffset() {
        let run = GradedRun(x0: 5, y: 95, dx: 10, count: 139, focus: 195, grades: Self.grades)
        // Offset −47: mark i is shown at 5 + 10i − 47; mark 24 at 198 (3 pt off: 18 tall), 23 at 188
        // and 25 at 208 (7 and 13 pt: 14 tall), the rest 4 tall.
        let marks = run.marks(offset: -47)
        #expect(marks.count == 139)
        let tall = marks.filter { $0.rect.height == 18 }
        #expect(tall.count == 1 && tall[0].rect == Rect(x: 244, y: 86, width: 2, height: 18))
        #expect(marks.filter { $0.rect.height == 14 }.map(\.rect.midX) == [235, 255])
        #expect(marks.filter { $0.rect.height == 4 }.count == 136)
        // A mark no grade takes is not drawn.
        let near = GradedRun(x0: 0, y: 0, dx: 10, count: 5, focus: 0, grades: [Self.grades[0]])
        #expect(near.marks(offset: 0).count == 1 && near.marks(offset: 5).isEmpty)
    }

    @Test("the SVG renderer draws each mark in its grade's fill at the layer's offset, the state's fill untouched")
    func gradedSVG() throws {
        var l = DisplayList()
        l.setFill(Color(9, 9, 9))
        l.scroll()
        l.gradedRun(GradedRun(x0: 0, y: 10, dx: 10, count: 3, focus: 10, grades: Self.grades))
        l.fillRect(Rect(x: 0, y: 0, width: 1, height: 1))
        let svg = try SVGRenderer.render(
            [Layer(id: 1, list: l, offset: Point(x: 10, y: 0))], size: Size(width: 40, height: 20))
        // Shown at 10, 20, 30: mark 0 is the focus's (18 tall), mark 1 10 pt off, mark 2 20 pt.
        #expect(svg.contains(##"<rect x="-1" y="1" width="2" height="18" fill="#010203"/>"##))
        #expect(svg.contains(##"<rect x="9.5" y="3" width="1" height="14" fill="#040506" fill-opacity="0.6"/>"##))
        #expect(svg.contains(##"<rect x="19.5" y="8" width="1" height="4" fill="#040506" fill-opacity="0.6"/>"##))
        #expect(svg.contains(##"<rect x="0" y="0" width="1" height="1" fill="#090909"/>"##))
    }

    static let ring = Pulse(
        center: Point(x: 195, y: 95), radius: (12, 18), alpha: (0.35, 0), duration: 0.15, fill: Color(0, 122, 255),
        starts: [1000.5, 1000.625, 1001])

    @Test("pulse: starts as float32 after the first (a float64), 4 bytes each; decodes within float32 of them")
    func pulseLayout() throws {
        var l = DisplayList()
        l.pulse(Self.ring)
        #expect(l.bytes.count == 1 + 28 + 4 + 8 + 2 + 4 * 3 && l.bytes[0] == 0x14)
        guard case .pulse(let got) = try #require(try DisplayListDecoder.decode(l.bytes).first) else {
            Issue.record("not a pulse")
            return
        }
        // 0.125 and 0.5 after 1000.5 are exact in float32; 0.15 is not.
        #expect(got.starts == Self.ring.starts && abs(got.duration - 0.15) < 1e-8 && got.fill == Self.ring.fill)
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(Array(l.bytes.dropLast())) }
    }

    @Test("only the latest start that has begun is drawn, growing and fading over its duration, then none")
    func pulseDisc() throws {
        let ring = Self.ring
        #expect(ring.disc(at: 1000.4) == nil)
        // 0.075 s into the first: radius 12 + 6 · 0.5, alpha 0.35 · 0.5.
        let half = try #require(ring.disc(at: 1000.575))
        #expect(abs(half.radius - 15) < 1e-9 && abs(half.alpha - 0.175) < 1e-9)
        // The second starts again from 12 at 1000.625.
        #expect(try #require(ring.disc(at: 1000.625)).radius == 12)
        #expect(ring.disc(at: 1000.776) == nil && ring.disc(at: 1000.9) == nil)
        #expect(try #require(ring.disc(at: 1001.03)).alpha < 0.35)
        #expect(ring.disc(at: 1001.151) == nil && abs(ring.end - 1001.15) < 1e-9)
        let svg = SVGRenderer.render(ops: [[.pulse(ring)]], size: Size(width: 390, height: 200), time: 1000.575)
        #expect(svg.contains(##"<circle cx="195" cy="95" r="15" fill="#007aff" fill-opacity="0.175"/>"##))
        #expect(
            !SVGRenderer.render(ops: [[.pulse(ring)]], size: Size(width: 390, height: 200), time: 1000.9).contains(
                "circle"))
    }
}
