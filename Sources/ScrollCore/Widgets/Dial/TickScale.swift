/// A row of ticks along a content axis, in integer ticks so values never drift: tick n is
/// centred at content coordinate X = n·spacing, and its cell spans half a spacing either
/// side. The ruler (WIDGETS.md §1) and the picker (§2) each hold one.
///
/// A tick's *index* is what it stands for: on a bounded scale the tick itself, on a wrapping
/// scale (the ruler's labels run 9…999 and start again) the tick reduced into one period.
public struct TickScale: Sendable, Equatable {
    public enum Extent: Sendable, Equatable {
        /// Ticks `range` only; the content stops hard at both ends (the picker).
        case bounded(ClosedRange<Int>)
        /// Endless: indices `first ..< first + count` repeat (the ruler).
        case wrapping(first: Int, count: Int)
    }

    public var spacing: Double
    public var extent: Extent

    public init(spacing: Double = 10, extent: Extent) {
        precondition(spacing > 0, "tick spacing must be positive")
        self.spacing = spacing
        self.extent = extent
    }

    /// The tick whose cell contains content coordinate x (the seeds' cell lookup).
    public func tick(containing x: Double) -> Int {
        Int(((x + spacing / 2) / spacing).rounded(.down))
    }

    /// Content coordinate of tick n's centre.
    public func offset(ofTick n: Int) -> Double { Double(n) * spacing }

    /// The cell boundary between tick n and its neighbour `n + direction` (±1).
    func boundary(from n: Int, direction: Int) -> Double {
        (Double(n) + 0.5 * Double(direction)) * spacing
    }

    /// What tick n stands for.
    public func index(ofTick n: Int) -> Int {
        switch extent {
        case .bounded(let range): return min(max(n, range.lowerBound), range.upperBound)
        case let .wrapping(first, count): return first + Self.mod(n - first, count)
        }
    }

    /// The tick standing for `index` nearest `tick`: on a wrapping scale the short way round
    /// (ahead when both ways are as long), on a bounded one the index clamped into range.
    public func tick(forIndex index: Int, near tick: Int) -> Int {
        switch extent {
        case .bounded: return self.index(ofTick: index)
        case .wrapping(_, let count):
            let ahead = Self.mod(index - self.index(ofTick: tick), count)
            return tick + (ahead <= count / 2 ? ahead : ahead - count)
        }
    }

    /// `steps` ticks on from tick n, stopping at the ends of a bounded scale.
    public func tick(_ n: Int, steppedBy steps: Int) -> Int {
        guard case .bounded(let range) = extent else { return n + steps }
        return min(max(n + steps, range.lowerBound), range.upperBound)
    }

    /// The first and last index.
    public var indices: ClosedRange<Int> {
        switch extent {
        case .bounded(let range): return range
        case let .wrapping(first, count): return first...(first + count - 1)
        }
    }

    /// The edges of the scroll axis: hard at the end ticks, none when endless.
    public var edges: AxisEdges {
        switch extent {
        case .bounded(let range):
            return .hard(min: offset(ofTick: range.lowerBound), max: offset(ofTick: range.upperBound))
        case .wrapping: return .none
        }
    }

    /// Content length of one period, nil when bounded.
    public var period: Double? {
        guard case .wrapping(_, let count) = extent else { return nil }
        return Double(count) * spacing
    }

    static func mod(_ a: Int, _ n: Int) -> Int {
        let r = a % n
        return r < 0 ? r + n : r
    }
}
