/// A digit roller as a readout (the weight readout "72.5 kg", the picker's count): its scene
/// pushes the followed widget's number in; it rolls there with `readoutInterval`.
extension DigitRoller: Readout {
    /// Rolls to a number from its next `advance` (a name is not a number: it is left out).
    public func follow(_ value: ReadoutValue) {
        guard case .number(let n) = value else { return }
        followed = n
    }

    /// Shows a number at once, at rest, on no fewer columns than it had.
    public func settle(on value: ReadoutValue) {
        guard case .number(let n) = value else { return }
        followed = n
        guard canShow(n) else { return }
        settle(on: n, columns: max(columnCount, columnRange(for: n).lowerBound))
    }
}
