/// Linear turns from `from` to `to`, `count` times over (the roller's full 0→10 cycles, as
/// UIView's repeat option): at t the position is from + (to − from)·frac(t / period).
public struct RepeatSimulation: Simulation, Equatable {
    public let from: Double
    public let to: Double
    public let period: Double
    public let count: Int

    public init(from: Double, to: Double, period: Double, count: Int) {
        self.from = from
        self.to = to
        self.period = max(period, 0)
        self.count = max(count, 0)
    }

    public var doneTime: Double { period * Double(count) }
    /// Each turn's end, where it starts again from `from`.
    public var breaks: [Double] { period > 0 && count > 1 ? (1..<count).map { Double($0) * period } : [] }
    /// Its turns end to end: one line from `from`, as far as all of them go (`count` may be in
    /// the millions: a wrapping track plays this, with no corner per turn).
    public var unrolled: any Simulation {
        count > 1
            ? RepeatSimulation(from: from, to: from + (to - from) * Double(count), period: doneTime, count: 1) : self
    }
    public var finalPosition: Double { to }

    public func position(at t: Double) -> Double {
        guard period > 0, t < doneTime else { return to }
        let turns = max(t, 0) / period
        return from + (to - from) * (turns - turns.rounded(.down))
    }

    public func velocity(at t: Double) -> Double {
        guard period > 0, t < doneTime else { return 0 }
        return (to - from) / period
    }
}
