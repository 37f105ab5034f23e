/// The keys a dial widget answers (docs/PROTOCOL.md, `key`) and where each one goes.
/// `keys` and key handling both read this one table, so they cannot disagree.
public enum KeyStep: Sendable, Equatable {
    /// This many ticks from the tick under the centre.
    case by(Int)
    /// The widget's first or last value (the picker's 0 and N, the ruler's first and last label).
    case first, last

    public static let table: [(key: String, step: KeyStep)] = [
        ("ArrowLeft", .by(-1)), ("ArrowDown", .by(-1)), ("ArrowRight", .by(1)), ("ArrowUp", .by(1)),
        ("PageDown", .by(-10)), ("PageUp", .by(10)), ("Home", .first), ("End", .last),
    ]

    public static var keys: [String] { table.map(\.key) }

    public static func step(for key: String) -> KeyStep? { table.first { $0.key == key }?.step }
}
