import Foundation
import Testing

@testable import ScrollCore

/// The pieces the ruler and the picker share (Widgets/Dial, Physics/AxisSpan), each on its own.
@Suite struct DialPartsTests {
    let ruler = WeightRuler.scale
    let picker = TickScale(spacing: 10, extent: .bounded(0...100))

    @Test("a tick's cell is half a spacing either side; x = 10k + 5 belongs to the next tick")
    func cells() {
        #expect(picker.tick(containing: 0) == 0)
        #expect(picker.tick(containing: 4.999) == 0)
        #expect(picker.tick(containing: 5) == 1)
        #expect(picker.tick(containing: -5) == 0)
        #expect(picker.tick(containing: -5.001) == -1)
        #expect(picker.boundary(from: 3, direction: 1) == 35 && picker.boundary(from: 3, direction: -1) == 25)
    }

    @Test("bounded: indices clamp to 0…N and the axis has hard edges at 0 and 10·N")
    func bounded() {
        #expect(picker.index(ofTick: -3) == 0 && picker.index(ofTick: 42) == 42 && picker.index(ofTick: 140) == 100)
        #expect(picker.tick(forIndex: 250, near: 7) == 100)
        #expect(picker.edges == .hard(min: 0, max: 1000))
        #expect(picker.period == nil && picker.indices == 0...100)
    }

    @Test("a value reads with its format: tenths as 72.5 and \"72.5 kg\", a count as itself")
    func numberFormat() {
        let kg = NumberFormat(decimals: 1, unit: "kg")
        #expect(kg.value(725) == 72.5 && kg.text(725) == "72.5 kg")
        #expect(kg.text(5) == "0.5 kg" && kg.text(85) == "8.5 kg" && kg.text(9994) == "999.4 kg")
        #expect(NumberFormat(decimals: 2).text(5) == "0.05" && NumberFormat(decimals: 2).value(5) == 0.05)
        #expect(NumberFormat().text(37) == "37" && NumberFormat().value(37) == 37)
        #expect(WeightRuler.format == kg && TickPicker.format == NumberFormat())
    }

    @Test("wrapping (the ruler): 8.5 … 999.4 kg repeat every 9910 ticks; the short way round")
    func wrapping() {
        #expect(ruler.indices == 85...9994)
        #expect(ruler.index(ofTick: 9995) == 85 && ruler.index(ofTick: 84) == 9994)
        #expect(ruler.period == 99_100 && ruler.edges == .none)
        // From 999.0 to 9.0: 10 ticks ahead (999.4 is followed by 8.5), not 9900 back.
        #expect(ruler.tick(forIndex: 90, near: 9990) == 9990 + 10)
        // From 72.5 to 9.0: 635 back.
        #expect(ruler.tick(forIndex: 90, near: 725) == 90)
    }

    @Test("reports: at a new tick's time, ≤ 1 per 16 ms, the held-back one 16 ms after the last; one final")
    func reporter() {
        var r = ValueReporter()
        var out: [DialEvent] = []
        r.changed(to: 1, at: 1.000, into: &out)  // reported at once
        r.changed(to: 2, at: 1.005, into: &out)  // held back
        r.changed(to: 3, at: 1.010, into: &out)  // replaces it
        r.flush(upTo: 1.0159, into: &out)  // not due yet
        #expect(out == [.report(tick: 1, at: 1.000, final: false)])
        // The held-back 3 first, at 1.000 + 0.016; then 4 is only 14 ms after it: held back.
        r.changed(to: 4, at: 1.030, into: &out)
        #expect(out == [.report(tick: 1, at: 1.000, final: false), .report(tick: 3, at: 1.016, final: false)])
        out = []
        r.changed(to: 5, at: 1.050, into: &out)  // 4 comes at 1.032, then 5 is 18 ms after it: at once
        #expect(out == [.report(tick: 4, at: 1.032, final: false), .report(tick: 5, at: 1.050, final: false)])
        out = []
        r.expectRest(from: 1.050)
        #expect(r.owesFinal)
        r.changed(to: 6, at: 1.055, into: &out)  // held back until 1.066; the rest at 1.060 comes first
        r.rested(on: 6, at: 1.060, into: &out)
        #expect(out == [.report(tick: 6, at: 1.060, final: true)])
        #expect(!r.owesFinal && !r.isHolding)
    }

    @Test("a report due exactly when the next tick comes is due: 0.074 + 0.016 is 0.09 here, not 0.09000000000000001")
    func reportTie() {
        var r = ValueReporter()
        var out: [DialEvent] = []
        r.changed(to: 1, at: 0.074, into: &out)
        r.changed(to: 2, at: 0.08, into: &out)  // held back until 0.09
        r.changed(to: 3, at: 0.09, into: &out)  // 2 is due now; 3 is then held back
        #expect(out.map(\.tick) == [1, 2])
        #expect(r.isHolding)
    }

    @Test("a touch cancels the final owed by the settling it interrupts")
    func cancelRest() {
        var r = ValueReporter()
        r.expectRest(from: 0)
        r.cancelRest()
        #expect(!r.owesFinal)
    }

    @Test("crossing times on a fling are the closed-form ones, found on the whole motion")
    func spanCrossings() throws {
        // Free fling from 0 at 1000 pt/s: x(t) = (1000/K)(1 − 0.998^(1000 t)), K = −1000·ln 0.998.
        var axis = ScrollAxis(offset: 0, edges: .none, snap: nil)
        axis.touchDown(at: 0, clientTime: 0, time: 0)
        for i in 1...10 { axis.touchMove(to: -Double(i), clientTime: Double(i) / 1000, time: Double(i) / 1000) }
        axis.touchUp(clientTime: 0.01, time: 0.01)
        let x0 = axis.offset(at: 0.01), v = axis.velocity(at: 0.01), k = -1000 * log(0.998)
        var spans: [AxisSpan] = []
        axis.advance(to: 0.05) { spans.append($0) }
        axis.advance(to: 0.30) { spans.append($0) }
        for target in [x0 + 20, x0 + 100, x0 + 200] {
            let exact = 0.01 + log(1 - (target - x0) * k / v) / (1000 * log(0.998))
            let found = try #require(spans.last).time(reaching: target)
            #expect(abs(found - exact) < 1e-12, "x = \(target)")
            // The same root from the earlier span, which ended before it: the motion decides, not the frame.
            if exact > 0.05 { #expect(abs(spans[0].time(reaching: target) - 0.05) < 1e-12) }
        }
    }
}

extension DialEvent {
    var tick: Int {
        switch self {
        case .crossed(let tick, _), .report(let tick, _, _): tick
        }
    }
}

/// What a dial costs and the order of what two dials say at once.
@Suite struct DialSceneTests {
    @Test("a wheel across millions of ruler ticks is one step: one moving value, then one final")
    func hugeWheelIsOneReport() {
        let scene = DemoScene.make()
        // 100000 pages of 390 pt: 3.9 million ticks in one event.
        scene.apply(.wheel(WheelInput(position: Point(x: 195, y: 214), dx: 0, dy: 100_000, unit: .pages)), at: 1)
        var events = scene.takeEvents()
        for k in 1...30 { scene.advance(to: 1 + Double(k) / 60); events += scene.takeEvents() }
        #expect(events.count == 2)
        #expect(
            events.last?.kind
                == .value(
                    Double(scene.semantics[1].valueNow ?? 0), text: scene.semantics[1].valueText ?? "", final: true))
    }

    @Test("a ruler fling and a picker fling at once: one event list in time order, the same at 30, 60 and 240 fps")
    func twoDialsInterleave() {
        func run(_ fps: Double) -> [SceneEvent] {
            var driver = SceneDriver(DemoScene.make(), fps: fps)
            func pointer(_ phase: PointerPhase, _ id: Int, _ x: Double, _ y: Double, _ t: Double) {
                let key = PointerKey(client: "a", pointer: id)
                driver.apply(
                    .pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: y), clientTime: t)), at: t)
            }
            pointer(.down, 1, 300, 214, 0)
            pointer(.down, 2, 300, 335, 0)
            for i in 1...10 {
                let t = 0.01 * Double(i)
                pointer(.move, 1, 300 - 12 * Double(i), 214, t)
                pointer(.move, 2, 300 - 8 * Double(i), 335, t)
            }
            pointer(.up, 1, 180, 214, 0.1)
            pointer(.up, 2, 220, 335, 0.1)
            driver.settle()
            return driver.events
        }
        let reference = run(60)
        #expect(Set(reference.map(\.widget)) == ["ruler", "picker"])
        let disorder = zip(reference, reference.dropFirst()).first { $0.time > $1.time }
        #expect(disorder == nil, "\(String(describing: disorder))")
        for fps in [30.0, 240.0] {
            let other = run(fps)
            #expect(other.count == reference.count)
            #expect(
                zip(other, reference).allSatisfy {
                    $0.kind == $1.kind && $0.widget == $1.widget && abs($0.time - $1.time) < 1e-9
                }, "\(fps) fps")
        }
    }
}
