/// Why a snapshot was refused: it names the widget and the field at fault.
public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
