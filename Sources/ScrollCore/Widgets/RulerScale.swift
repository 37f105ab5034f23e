/// The weight ruler's numbers (WIDGETS.md §1), in integer ticks so values never drift.
///
/// Content coordinate X (pt) runs left to right; tick n is centred at X = 10·n and
/// stands for n/10 kg before wrapping. Block w (its label) spans ticks 10w−5 … 10w+4,
/// its major tick is n = 10w. Labels run 9…999 and wrap, so the ruler is periodic.
public enum RulerScale {
    public static let tickSpacing = 10.0
    public static let ticksPerBlock = 10
    public static let minLabel = 9
    public static let maxLabel = 999
    public static let labelCount = maxLabel - minLabel + 1  // 991
    public static let tickCount = labelCount * ticksPerBlock  // 9910
    /// Lowest tick in tenths: block 9, j = 0 → 8.5 kg.
    public static let firstTick = minLabel * ticksPerBlock - 5  // 85
    /// Content length of one full turn of labels (pt).
    public static let period = Double(tickCount) * tickSpacing  // 99,100

    /// The tick whose 10-pt cell contains content coordinate x (the seed's cell lookup).
    public static func tick(containing x: Double) -> Int {
        Int(((x + tickSpacing / 2) / tickSpacing).rounded(.down))
    }

    /// Tick index in tenths of a kg, wrapped into 85…9994 (8.5 … 999.4 kg).
    public static func wrappedTenths(_ tick: Int) -> Int {
        firstTick + mod(tick - firstTick, tickCount)
    }

    /// The label of the block whose major tick is tick 10·b.
    public static func label(ofBlock b: Int) -> Int {
        minLabel + mod(b - minLabel, labelCount)
    }

    /// Content coordinate that puts `value` (rounded to 0.1) under the centre.
    public static func offset(forValue value: Double) -> Double {
        Double(wrappedTenths(Int((value * 10).rounded()))) * tickSpacing
    }

    public static func text(tenths: Int) -> String {
        "\(tenths / 10).\(tenths % 10) kg"
    }

    static func mod(_ a: Int, _ n: Int) -> Int {
        let r = a % n
        return r < 0 ? r + n : r
    }
}
