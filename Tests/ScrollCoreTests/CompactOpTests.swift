import ScrollCore
import Testing

/// Display op 0x11 (docs/PROTOCOL.md, "Display list"): a row of copies of one line.
struct LineRunTests {
    static func run() -> DisplayList {
        var l = DisplayList()
        l.lineRun(0.5, 1, 0.5, 6.25, dx: 10, dy: 0.5, count: 12, skipEvery: 5, skipPhase: 3)
        return l
    }

    @Test("lineRun is 29 bytes: op 0x11, six float32, count u16, skipEvery, skipPhase")
    func layout() {
        let b = Self.run().bytes
        #expect(b.count == 29)
        #expect(b[0] == 0x11)
        #expect(Array(b[25...]) == [12, 0, 5, 3])
        #expect(Array(b[1..<5]) == Array(Float(0.5).bitPattern.littleEndianBytes))
    }

    @Test("copy i is shifted by i·(dx, dy); the copies with i mod skipEvery = skipPhase are left out")
    func lines() throws {
        let ops = try DisplayListDecoder.decode(Self.run().bytes)
        guard case .lineRun(let run) = try #require(ops.first) else {
            Issue.record("decoded \(ops)")
            return
        }
        let lines = run.lines.map { [$0.0, $0.1, $0.2, $0.3] }
        // 12 copies less i = 3 and i = 8.
        #expect(lines.count == 10)
        #expect(lines[0] == [0.5, 1, 0.5, 6.25])
        #expect(lines[3] == [40.5, 3, 40.5, 8.25])  // i = 4
        #expect(lines.last == [110.5, 6.5, 110.5, 11.75])  // i = 11
        #expect(!lines.contains([30.5, 2.5, 30.5, 7.75]) && !lines.contains([80.5, 5, 80.5, 10.25]))
        var none = DisplayList()
        none.lineRun(0, 0, 0, 1, dx: 1, dy: 0, count: 3)
        guard case .lineRun(let all) = try DisplayListDecoder.decode(none.bytes).first else { return }
        #expect(all.lines.count == 3)
    }

    @Test("the SVG renderer draws each line of the run with the current stroke")
    func svg() throws {
        var l = DisplayList()
        l.setStroke(Color(1, 2, 3), width: 2)
        l.lineRun(1, 0, 1, 5, dx: 10, dy: 0, count: 3, skipEvery: 3, skipPhase: 1)
        let svg = try SVGRenderer.render([Layer(id: 1, list: l)], size: Size(width: 40, height: 10))
        #expect(svg.components(separatedBy: "<line ").count - 1 == 2)
        #expect(svg.contains("<line x1=\"1\" y1=\"0\" x2=\"1\" y2=\"5\""))
        #expect(svg.contains("<line x1=\"21\" y1=\"0\" x2=\"21\" y2=\"5\""))
        #expect(!svg.contains("x1=\"11\""))
    }

    @Test("a truncated run is refused with its offset")
    func truncated() {
        let b = Array(Self.run().bytes.dropLast())
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(b) }
    }
}

/// Display op 0x12: a polygon of 2-byte points around a centre.
struct SmallPolygonTests {
    @Test("fillPolygonSmall is 14 + 2n bytes; point i is at centre + (x, y)·unit, x and y signed bytes")
    func layout() throws {
        var l = DisplayList()
        l.fillPolygonSmall(
            center: Point(x: 10, y: 20), unit: 0.5, points: [(x: -4, y: 6), (x: 127, y: -128), (x: 0, y: 1)])
        #expect(l.bytes.count == 1 + 12 + 1 + 6)
        #expect(l.bytes[0] == 0x12 && l.bytes[13] == 3)
        #expect(Array(l.bytes[14...]) == [0xFC, 6, 127, 0x80, 0, 1])
        #expect(
            try DisplayListDecoder.decode(l.bytes) == [
                .fillPolygon([Point(x: 8, y: 23), Point(x: 73.5, y: -44), Point(x: 10, y: 20.5)])
            ])
    }

    @Test("the carousel draws its glyphs as small polygons: one drawing while it slides, ≤ 256 B an item")
    func carouselGlyphs() throws {
        let scene = DemoScene.make()
        let index = try #require(scene.widgets.firstIndex { $0.id == "carousel" })
        let key = PointerKey(client: "t", pointer: 1)
        let y = DemoScene.carouselFrame.midY
        scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 330, y: y), clientTime: 0)), at: 0)
        var lists: [[UInt8]] = []
        var ops: [DecodedOp] = []
        for k in 1...40 {  // 4 pt a frame: every item passes through the middle, the largest scale
            let t = Double(k) / 60
            scene.apply(
                .pointer(
                    PointerInput(
                        phase: .move, key: key, position: Point(x: 330 - 4 * Double(k), y: y), clientTime: t * 1000)),
                at: t)
            let list = scene.render(theme: .light).first { $0.id == UInt16(index + 1) }!.list
            lists.append(list.bytes)
            ops = try DisplayListDecoder.decode(list.bytes)
        }
        // Its items sized by lenses as the layer slides: the same ops at every offset.
        #expect(Set(lists).count == 1)
        let items = try #require(scene.widgets[index] as? Carousel).count
        #expect(lists[0].count <= 256 * items, "carousel layer \(lists[0].count) B for \(items) items")
        // Every glyph still arrives: the heart's 32 points, decoded as a plain polygon.
        #expect(ops.contains { if case .fillPolygon(let p) = $0 { p.count == 32 } else { false } })
    }
}

extension UInt32 {
    fileprivate var littleEndianBytes: [UInt8] { (0..<4).map { UInt8(self >> (8 * $0) & 0xFF) } }
}
