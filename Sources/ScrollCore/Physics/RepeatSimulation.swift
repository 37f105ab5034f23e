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
    /// Counted before they are listed: `count` may be in the millions.
    public func breaks(atMost n: Int) -> [Double]? { count - 1 > n ? nil : breaks }
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
