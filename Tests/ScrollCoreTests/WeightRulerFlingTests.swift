import Testing

@testable import ScrollCore

/// The ruler flings at UIKit's normal rate (0.998/ms) and rests exactly on a tick (WIDGETS.md §1).
@Suite struct WeightRulerFlingTests {
    /// Pointer moves left at `speed` pt/s in 8 ms steps for `steps` samples, then lifts at once.
    func fling(_ d: inout RulerDriver, speed: Double, steps: Int = 10, dt: Double = 1.0 / 60) {
        d.send(.down, x: 300)
        for i in 1...steps {
            d.time += 0.008
            d.send(.move, x: 300 - speed * 0.008 * Double(i))
        }
        d.send(.up, x: 300 - speed * 0.008 * Double(steps))
        d.run(for: 8, dt: dt)
    }

    @Test("1000 pt/s: rest = release + 499.50 pt, snapped to the nearest tick")
    func normalRateFling() {
        var d = RulerDriver(value: 72.5)
        fling(&d, speed: 1000)
        // Release at 7250 + 80 = 7330 pt; x∞ = 7330 + 1000/(1000·−ln 0.998) = 7829.50 → tick at 7830 (78.3 kg).
        #expect(d.ruler.contentOffset == 7830)
        #expect(d.finalValues == [78.3])
        #expect(!d.ruler.isAnimating)
    }

    @Test("5000 pt/s: rest = release + 2497.50 pt")
    func fastFling() {
        var d = RulerDriver(value: 72.5)
        fling(&d, speed: 5000, steps: 4)
        // Release at 7250 + 160 = 7410; x∞ = 7410 + 2497.50 = 9907.50 → nearest tick 9910 (99.1 kg).
        #expect(d.ruler.contentOffset == 9910)
        #expect(d.finalValues == [99.1])
    }

    @Test("the same fling ticked at 30, 60 and 240 Hz rests on the same tick at the same time")
    func frameRateIndependent() {
        var results: [(Double, Double)] = []
        for hz in [30.0, 60.0, 240.0] {
            var d = RulerDriver(value: 72.5)
            fling(&d, speed: 1800, dt: 1 / hz)
            let finals = d.events.filter { if case .value(_, _, true) = $0.kind { true } else { false } }
            #expect(finals.count == 1, "\(hz) Hz")
            guard let final = finals.first else { return }
            results.append((d.ruler.contentOffset, final.time))
        }
        #expect(results.allSatisfy { $0.0 == results[0].0 })
        // The final event carries the exact rest time, whatever the tick rate.
        #expect(results.allSatisfy { abs($0.1 - results[0].1) < 1e-9 })
    }

    @Test("value events during a glide are ≥ 16 ms apart, and the final value comes once")
    func glideReports() {
        var d = RulerDriver(value: 72.5)
        fling(&d, speed: 3000, dt: 1.0 / 240)
        let values = d.events.compactMap { e -> (Double, Bool)? in
            if case let .value(_, _, final) = e.kind { return (e.time, final) } else { return nil }
        }
        #expect(values.filter { $0.1 }.count == 1)
        #expect(values.last?.1 == true)
        let moving = values.filter { !$0.1 }
        #expect(moving.count > 20)
        for (a, b) in zip(moving, moving.dropFirst()) { #expect(b.0 - a.0 >= 0.016 - 1e-9) }
    }

    @Test("a touch during the glide stops it at once and is not a tap")
    func catchMidFlight() {
        var d = RulerDriver(value: 72.5)
        d.send(.down, x: 300)
        for i in 1...10 { d.time += 0.008; d.send(.move, x: 300 - 8 * Double(i)) }
        d.send(.up, x: 220)
        d.run(for: 0.3)
        #expect(d.ruler.isAnimating)
        d.send(.down, x: 200)
        let caught = d.ruler.contentOffset
        #expect(caught > 7330 && caught < 7829.5)
        d.run(for: 1.0 / 60)
        #expect(d.ruler.contentOffset == caught)
        #expect(!d.ruler.isAnimating)
        d.time += 0.1
        d.send(.up, x: 200)
        d.run(for: 0.5)
        // Released with no motion: revised to the tick whose cell holds the catch point.
        #expect(d.ruler.contentOffset == (caught / 10).rounded() * 10)
        #expect(d.finalValues.count == 1)
    }
}
