import ScrollCore

/// A message arriving in pieces, kept only as far as the load generator reads it: its kind
/// and first bytes (a frame's header, a text's start: enough to tell its type and read a
/// short one).
struct MessageHead {
    static let textBytes = 512

    /// How much of a text message is kept (a reader that counts events keeps it all).
    var textLimit = Self.textBytes
    private var inMessage = false
    private var binary = false
    private var head: [UInt8] = []
    private var size = 0

    /// Adds a piece; once the last is in, the message's kind, first bytes and whole size.
    mutating func add(
        _ piece: UnsafeRawBufferPointer, binary: Bool, isLast: Bool
    ) -> (binary: Bool, bytes: [UInt8], size: Int)? {
        if !inMessage {
            inMessage = true
            self.binary = binary
            head.removeAll(keepingCapacity: true)
            size = 0
        }
        size += piece.count
        let keep = (self.binary ? FrameFormat.headerSize : textLimit) - head.count
        if keep > 0 { head.append(contentsOf: piece.prefix(keep)) }
        guard isLast else { return nil }
        inMessage = false
        return (self.binary, head, size)
    }
}
