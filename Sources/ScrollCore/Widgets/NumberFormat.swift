/// How a whole number of steps reads: the ruler's 725 tenths are 72.5 and "72.5 kg", the
/// picker's 37 is 37 and "37". A dial's value events and the readout that shows its value use
/// the same one, so a readout says what its widget reports.
public struct NumberFormat: Sendable, Equatable {
    /// Digits after the decimal point: n counts units of 10^−decimals.
    public var decimals: Int
    /// Said after the number, after a space ("kg").
    public var unit: String?

    public init(decimals: Int = 0, unit: String? = nil) {
        precondition(decimals >= 0, "decimals cannot be negative")
        self.decimals = decimals
        self.unit = unit
    }

    /// n as a number (725 tenths: 72.5).
    public func value(_ n: Int) -> Double {
        decimals == 0 ? Double(n) : Double(n) / Double(power)
    }

    /// n (not negative) as text (725 tenths: "72.5 kg"; 5 tenths: "0.5 kg"). Called for every
    /// value event a moving dial sends, so it builds the text in one go.
    public func text(_ n: Int) -> String {
        var text: String
        if decimals == 0 {
            text = String(n)
        } else {
            let fraction = String(n % power)
            text = "\(n / power)."
            if fraction.count < decimals { text += String(repeating: "0", count: decimals - fraction.count) }
            text += fraction
        }
        if let unit {
            text += " "
            text += unit
        }
        return text
    }

    /// 10^decimals.
    private var power: Int { (0..<decimals).reduce(1) { p, _ in p * 10 } }
}
