/// `DisplayList.numberRun`'s operands: `count` whole numbers drawn as text, number i at
/// (x0 + i·dx, y0 + i·dy) with the size, alignment, baseline and weight a `text` op has. Number i
/// is first + i·step, wrapped into `wrap` when there is one (lo + (first + i·step − lo) mod
/// (hi − lo + 1)), written in decimal with no separators. A row of labels (the ruler's 9…999,
/// round again) is one op of 42 bytes instead of ~21 a label (docs/PROTOCOL.md, "Display list").
public struct NumberRun: Sendable, Equatable {
    public var x0, y0, dx, dy: Double
    public var size: Double
    public var align: TextAlign
    public var baseline: TextBaseline
    public var weight: FontWeight
    public var count: Int
    /// Each in Int32 on the wire.
    public var first, step: Int
    /// The numbers' range, round again past its end; nil: they run on as they are.
    public var wrap: ClosedRange<Int>?

    public init(
        x0: Double, y0: Double, dx: Double, dy: Double = 0, size: Double, align: TextAlign = .left,
        baseline: TextBaseline = .alphabetic, weight: FontWeight = .regular, count: Int, first: Int, step: Int = 1,
        wrap: ClosedRange<Int>? = nil
    ) {
        (self.x0, self.y0, self.dx, self.dy, self.size) = (x0, y0, dx, dy, size)
        (self.align, self.baseline, self.weight) = (align, baseline, weight)
        (self.count, self.first, self.step, self.wrap) = (count, first, step, wrap)
    }

    /// Number i (within ±2⁴⁷ for any run the wire carries, so exact in Int and in JS's doubles).
    public func number(_ i: Int) -> Int {
        let n = first + i * step
        guard let wrap else { return n }
        let period = wrap.upperBound - wrap.lowerBound + 1
        let r = (n - wrap.lowerBound) % period
        return wrap.lowerBound + (r < 0 ? r + period : r)
    }

    /// What is drawn, in order: each number's text and where.
    public var texts: [(text: String, x: Double, y: Double)] {
        (0..<count).map { i in (String(number(i)), x0 + Double(i) * dx, y0 + Double(i) * dy) }
    }
}
