/// A trace that cannot be replayed, pointing at the line at fault:
/// `trace.jsonl:7: "x" must be a finite number`.
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The trace's name as given to the parser (usually its file name).
    public var name: String
    /// 1-based line number.
    public var line: Int
    public var message: String

    public init(name: String, line: Int, message: String) {
        self.name = name; self.line = line; self.message = message
    }

    public var description: String { "\(name):\(line): \(message)" }
}
