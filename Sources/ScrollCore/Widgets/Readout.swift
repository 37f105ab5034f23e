/// What a readout shows of the widget it follows.
public enum ReadoutValue: Sendable, Equatable {
    /// A whole number of the widget's steps (the ruler's tenths of a kg, the picker's count):
    /// the readout reads it with the widget's `NumberFormat`.
    case number(Int)
    /// A name (the carousel's selected item).
    case text(String)
}

/// A widget whose value a readout can show (the ruler, the picker, the carousel).
public protocol ReadoutSource: Widget {
    var readoutValue: ReadoutValue { get }
}

/// A widget that shows another's value (the weight readout, the picker's count, the carousel's
/// name). It never reads that widget itself: its scene pushes the value in (`ReadoutBinding`).
public protocol Readout: Widget {
    /// The value it shows from now on: a label shows it at once, a roller rolls to it from its
    /// next `advance`.
    func follow(_ value: ReadoutValue)
    /// Shows `value` at once, at rest: in a new scene, and in one just restored.
    func settle(on value: ReadoutValue)
}
