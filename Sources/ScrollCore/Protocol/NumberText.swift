/// A JSON number as a client wrote it, kept to be written back as it came (`applied` echoes a
/// pointer's `t` so): held inline, at most `capacity` bytes, so keeping it allocates nothing.
public struct NumberText: Sendable, Equatable, CustomStringConvertible {
    /// As long as the longest a number is formatted (`-2.2250738585072014e-308`): an echo of it
    /// is no longer than the number formatted again, and a message keeps its documented size.
    public static let capacity = 24

    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    public let count: Int

    /// `bytes`, which must be a well-formed JSON number (the caller read it as one); nil when
    /// longer than `capacity`.
    public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.capacity else { return nil }
        count = bytes.count
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
    }

    /// `text` when it is one JSON number (space around it dropped) of at most `capacity` bytes.
    public init?(_ text: String) {
        let trimmed = text.trimmingPrefix(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        var number = String(trimmed)
        guard case .number? = try? JSONParser.parse(number) else { return nil }
        guard let made = number.withUTF8({ NumberText($0) }) else { return nil }
        self = made
    }

    /// Its bytes, for `body` to copy.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    public var description: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (a: Self, b: Self) -> Bool {
        a.withBytes { x in b.withBytes { y in x.elementsEqual(y) } }
    }
}
