/// What the mirror script's sender writes and its receivers read back: the message's seq as ten
/// digits, then filler up to the wanted size (ASCII: libwebsockets' test server checks UTF-8).
enum MirrorMessage {
    static let seqDigits = 10

    /// Message `seq` (1, 2, …) of `size` bytes (at least the digits).
    static func text(seq: UInt32, size: Int) -> String {
        let digits = String(seq)
        let padded = String(repeating: "0", count: max(seqDigits - digits.count, 0)) + digits
        return padded + String(repeating: "x", count: max(size - seqDigits, 0))
    }

    /// The seq of a message made by `text`; nil for anything else.
    static func seq(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count >= seqDigits else { return nil }
        var value: UInt64 = 0
        for byte in bytes.prefix(seqDigits) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return value > 0 && value <= UInt64(UInt32.max) ? UInt32(value) : nil
    }
}
