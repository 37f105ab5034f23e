/// What JavaScript's `x.toFixed(decimals)` writes, when the server can be sure of it: a run sent
/// ahead may carry its texts as a format of its values that the page rebuilds with `toFixed`
/// (docs/PROTOCOL.md, "Events ahead"), so both sides must write the same digits.
///
/// `toFixed` picks the nearest n / 10^decimals to the exact binary value, the larger n on a tie,
/// and writes a negative number as "-" and its magnitude (so -0.04 is "-0.0", but -0 is "0.0").
/// C's printf rounds a tie to even and writes -0 as "-0". Rather than decide ties exactly this
/// refuses any value whose scaled magnitude is within 1e-6 of a half: both round every other
/// value to the same nearest n.
public enum JSFixed {
    /// The most digits after the point a run's text format uses.
    public static let maxDecimals = 6

    /// `x.toFixed(decimals)` as JavaScript writes it; nil when not sure: x not finite, decimals
    /// outside 0…6, |x|·10^decimals ≥ 1e9 (beyond that a Double's product is too coarse to tell a
    /// tie within 1e-6), or within 1e-6 of a tie.
    public static func string(_ x: Double, decimals: Int) -> String? {
        guard x.isFinite, (0...maxDecimals).contains(decimals) else { return nil }
        let power = (0..<decimals).reduce(1.0) { p, _ in p * 10 }
        // Exact powers of ten and a magnitude below 1e9: the product is within 6e-8 of the exact
        // one, so the margin below holds for the exact value too and both round it alike.
        let scaled = x.magnitude * power
        guard scaled < 1e9, abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 else { return nil }
        let digits = String(Int(scaled.rounded()))
        var text = x < 0 ? "-" : ""
        if decimals == 0 { return text + digits }
        // At least one digit before the point: 5 hundredths is "0.05".
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        text += padded.dropLast(decimals)
        text += "."
        text += padded.suffix(decimals)
        return text
    }
}
