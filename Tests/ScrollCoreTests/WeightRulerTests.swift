import Testing

@testable import ScrollCore

/// WIDGETS.md §1: block w covers w−0.5 … w+0.4; value = w + (j − 5)·0.1; labels 9…999 wrap.
@Suite struct WeightRulerTests {
    let centre = DemoScene.rulerFrame.midX

    @Test("initial placement for x.0 … x.9 follows the seed's rule", arguments: 0...9)
    func initialPlacement(decimal: Int) throws {
        let v = 72 + Double(decimal) / 10
        // Seed: d ≤ 4 → centre block w, pointer on tick j = d + 5; else block w + 1, j = d − 5.
        let (block, j) = decimal <= 4 ? (72, decimal + 5) : (73, decimal - 5)
        let ruler = WeightRuler(frame: DemoScene.rulerFrame, value: v)
        #expect(abs(ruler.value - v) < 1e-9)
        var list = DisplayList()
        ruler.render(into: &list, theme: .light)
        // Tick j sits under the pointer, so the block's major tick (j = 5) is (5 − j)·10 pt away.
        let x = try #require(try labels(list, offset: ruler.layerOffset)["\(block)"])
        #expect(abs(x - (centre + Double(5 - j) * 10)) < 0.001)
    }

    @Test("value = block + (j − 5)·0.1 for every cell of a block")
    func valueMapping() {
        // Start on tick j = 0 of block 100 (99.5) and step right one 10-pt cell at a time.
        for j in 0...9 {
            var d = RulerDriver(value: 99.5)
            d.drag(by: -10 * Double(j))
            d.run(for: 0.3)
            #expect(abs(d.ruler.value - (100 + Double(j - 5) * 0.1)) < 1e-9, "j = \(j)")
        }
    }

    @Test("dragging the content left by 100 pt raises the value by 1.0")
    func dragFollowsPointer() {
        var d = RulerDriver(value: 72.5)
        d.send(.down, x: 300)
        d.time += 0.05
        d.send(.move, x: 237)
        // 1:1 with the pointer while tracking: 63 pt = 6.3 ticks; the centre is in 73.1's cell.
        #expect(d.ruler.contentOffset == 725 * 10 + 63)
        #expect(abs(d.ruler.value - 73.1) < 1e-9)
        d.time += 0.05
        d.send(.move, x: 200)
        d.time += 0.1
        d.send(.up, x: 200)
        d.run(for: 0.5)
        #expect(d.finalValues == [73.5])
    }

    @Test("labels wrap: after 999 comes 9, before 9 comes 999")
    func wrapForward() throws {
        var d = RulerDriver(value: 999.0)
        d.drag(by: -100)
        d.run(for: 0.3)
        #expect(d.ruler.value == 9.0)
        #expect(d.finalValues == [9.0])
        var list = DisplayList()
        d.ruler.render(into: &list, theme: .light)
        let xs = try labels(list, offset: d.ruler.layerOffset)
        #expect(xs["999"].map { abs($0 - (centre - 100)) < 0.001 } == true)
        #expect(xs["9"].map { abs($0 - centre) < 0.001 } == true)
        #expect(xs["10"].map { abs($0 - (centre + 100)) < 0.001 } == true)
    }

    @Test("wrap backwards: 9.0 − 1.0 = 999.0 and 8.5 − 0.1 = 999.4")
    func wrapBackward() {
        var d = RulerDriver(value: 9.0)
        d.drag(by: 100)
        d.run(for: 0.3)
        #expect(d.ruler.value == 999.0)
        var e = RulerDriver(value: 8.5)
        e.drag(by: 10)
        e.run(for: 0.3)
        #expect(e.ruler.value == 999.4)
        #expect(e.ruler.valueText == "999.4 kg")
    }

    @Test("release between ticks revises to the tick whose cell holds the centre, in 0.2 s")
    func revision() {
        var d = RulerDriver(value: 72.5)
        d.drag(by: -104)  // centre at 7354 pt: cell of tick 735 (73.5), 4 pt off its middle
        let released = d.time
        d.run(for: 0.1)
        #expect(d.ruler.isAnimating)
        #expect(d.finalValues.isEmpty)
        d.run(for: 0.1 + 1e-9)
        #expect(!d.ruler.isAnimating)
        #expect(d.ruler.contentOffset == 7350)
        #expect(d.finalValues == [73.5])
        let final = d.events.last!
        #expect(abs(final.time - released - 0.2) < 1e-9)

        var e = RulerDriver(value: 72.5)
        e.drag(by: -106)  // 7356 pt: the next cell (73.6)
        e.run(for: 0.3)
        #expect(e.ruler.contentOffset == 7360)
        #expect(e.finalValues == [73.6])
    }

    @Test("value changes while moving come at most every 16 ms; the final value exactly once")
    func throttledReports() {
        var d = RulerDriver(value: 72.5)
        d.send(.down, x: 300)
        for i in 1...50 {
            d.time += 0.004
            d.send(.move, x: 300 - 3 * Double(i))
        }
        d.time += 0.1
        d.send(.up, x: 150)
        d.run(for: 0.5)
        let moving = d.events.filter { if case .value(_, _, false) = $0.kind { return true } else { return false } }
        #expect(moving.count >= 5)
        for (a, b) in zip(moving, moving.dropFirst()) { #expect(b.time - a.time >= 0.016 - 1e-9) }
        #expect(d.finalValues == [74.0])  // 150 pt = 15 ticks
        #expect(d.events.last.map { if case .value(_, _, true) = $0.kind { true } else { false } } == true)
    }

    @Test("after scrolling 10^7 pt the value is exact and the display list stays bounded")
    func longScroll() throws {
        var d = RulerDriver(value: 72.5)
        var initial = DisplayList()
        d.ruler.render(into: &initial, theme: .light)
        var largest = 0
        let drags = 10_000_000 / 250
        for i in 0..<drags {
            d.drag(by: -250, from: 320, steps: 2)
            d.run(for: 0.25, dt: 0.25)
            if i % 997 == 0 {
                var list = DisplayList()
                d.ruler.render(into: &list, theme: .light)
                largest = max(largest, list.bytes.count)
            }
        }
        // 10^7 pt = 10^6 ticks past 72.5 kg on a 9910-tick ring starting at 8.5 kg.
        let expectedTenths = 85 + (725 + 1_000_000 - 85) % 9910
        #expect(d.ruler.tenths == expectedTenths)
        #expect(abs(d.ruler.contentOffset) < WeightRuler.scale.period!)
        #expect(largest <= initial.bytes.count + 64)
    }
}
