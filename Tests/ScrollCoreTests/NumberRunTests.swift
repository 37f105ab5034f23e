import Testing

@testable import ScrollCore

/// Display op 0x16 (docs/PROTOCOL.md, "Display list"): a row of whole numbers drawn as text, and
/// the ruler's labels drawn so.
struct NumberRunTests {
    /// The brief's wrap: 998, 999, then round to 9, 10 (positions exact in float32).
    static let wrapping = NumberRun(
        x0: 95.5, y0: 41.5, dx: 100, size: 17, align: .center, baseline: .top, count: 4, first: 998, wrap: 9...999)

    @Test("numberRun is 42 bytes: op 0x16, five float32, align, baseline, weight, count u16, four int32")
    func layout() throws {
        var l = DisplayList()
        l.numberRun(Self.wrapping)
        let b = l.bytes
        #expect(b.count == 42 && b[0] == 0x16)
        // x0 95.5 = 0x42BF0000, dy 0, size 17 = 0x41880000.
        #expect(Array(b[1..<5]) == [0x00, 0x00, 0xBF, 0x42] && Array(b[13..<17]) == [0, 0, 0, 0])
        #expect(Array(b[17..<21]) == [0x00, 0x00, 0x88, 0x41])
        // centre, top, regular; 4 numbers; first 998, step 1, lo 9, hi 999.
        #expect(Array(b[21..<26]) == [1, 0, 0, 4, 0])
        #expect(Array(b[26...]) == [0xE6, 0x03, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0xE7, 0x03, 0, 0])
        #expect(try DisplayListDecoder.decode(b) == [.numberRun(Self.wrapping)])
        #expect(throws: DisplayListDecodingError.self) { try DisplayListDecoder.decode(Array(b.dropLast())) }
    }

    @Test("no wrap goes as lo 0, hi −1 and reads back as none; negative numbers are two's complement")
    func noWrap() throws {
        let run = NumberRun(x0: 0, y0: 0, dx: 0, dy: 20, size: 12, weight: .bold, count: 3, first: -3, step: -2)
        var l = DisplayList()
        l.numberRun(run)
        #expect(
            Array(l.bytes[26...]) == [
                0xFD, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF,
            ])
        #expect(try DisplayListDecoder.decode(l.bytes) == [.numberRun(run)])
        #expect(run.texts.map(\.text) == ["-3", "-5", "-7"])
        #expect(run.texts.map(\.y) == [0, 20, 40])
    }

    @Test("number i is first + i·step wrapped into lo…hi: 998, 999, 9, 10; and backwards past lo")
    func wrap() {
        #expect(Self.wrapping.texts.map(\.text) == ["998", "999", "9", "10"])
        #expect(Self.wrapping.texts.map(\.x) == [95.5, 195.5, 295.5, 395.5])
        let down = NumberRun(x0: 0, y0: 0, dx: 1, size: 1, count: 4, first: 10, step: -1, wrap: 9...999)
        #expect(down.texts.map(\.text) == ["10", "9", "999", "998"])
        // A step longer than the period: 5, then 17 in 0…9 is 7, 29 is 9.
        let long = NumberRun(x0: 0, y0: 0, dx: 1, size: 1, count: 3, first: 5, step: 12, wrap: 0...9)
        #expect(long.texts.map(\.text) == ["5", "7", "9"])
    }

    @Test("the SVG renderer draws a run as the text ops it stands for")
    func svg() throws {
        func render(_ draw: (inout DisplayList) -> Void) throws -> String {
            var l = DisplayList()
            l.setFill(Color(10, 20, 30))
            draw(&l)
            return try SVGRenderer.render([Layer(id: 1, list: l)], size: Size(width: 400, height: 80))
        }
        let run = try render { $0.numberRun(Self.wrapping) }
        let texts = try render { l in
            for (s, x) in [("998", 95.5), ("999", 195.5), ("9", 295.5), ("10", 395.5)] {
                l.text(s, x: x, y: 41.5, size: 17, align: .center, baseline: .top)
            }
        }
        #expect(run == texts)
        #expect(run.components(separatedBy: "<text ").count - 1 == 4)
        #expect(run.contains(#"<text x="295.5" y="41.5" font-family="DejaVu Sans" font-size="17""#))
    }

    @Test("the ruler's labels are one run, across the wrap too: its layer is 215 B however many it draws")
    func ruler() throws {
        func layer(_ ruler: WeightRuler) throws -> (bytes: Int, runs: [NumberRun], texts: Int) {
            var list = DisplayList()
            ruler.render(into: &list, theme: .light)
            let ops = try DisplayListDecoder.decode(list.bytes)
            let runs = ops.compactMap { if case .numberRun(let r) = $0 { r } else { nil } }
            return (list.bytes.count, runs, ops.filter { if case .text = $0 { true } else { false } }.count)
        }
        // save, clip 17, fill 5, rect 17, save, scroll, stroke 9, lineRun 29, stroke 9, lineRun 29,
        // fill 5, numberRun 42, restore, fill 5, pointer rect 17 and triangle 26, restore.
        for value in [72.5, 999.0, 9.0] {
            let drawn = try layer(WeightRuler(frame: DemoScene.rulerFrame, value: value))
            #expect(drawn.bytes == 215 && drawn.texts == 0 && drawn.runs.count == 1)
            #expect(drawn.runs.first?.wrap == 9...999 && drawn.runs.first?.step == 1)
            // 390 pt shown and the 200 pt anchor step drawn, a label every 100 pt: 7.
            #expect(drawn.runs.first?.count == 7)
        }
        // A fling's glide drawn whole, tens of labels: the same 215 B.
        var d = RulerDriver(value: 72.5)
        d.send(.down, x: 330)
        for k in 1...10 {
            d.time += 0.008
            d.send(.move, x: 330 - 16 * Double(k))
        }
        d.send(.up, x: 170)
        let glide = try layer(d.ruler)
        #expect(d.ruler.isAnimating && glide.bytes == 215 && glide.texts == 0)
        // 17 labels: as text ops, 17 × 20–21 B.
        #expect(glide.runs.first?.count == 17)
    }
}
