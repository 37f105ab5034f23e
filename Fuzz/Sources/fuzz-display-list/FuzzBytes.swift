/// Reads values from the fuzzer's bytes; past the end every read gives zero, so any input
/// is a complete program.
struct FuzzBytes {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { rest = bytes[...] }

    var isEmpty: Bool { rest.isEmpty }

    mutating func u8() -> UInt8 { rest.popFirst() ?? 0 }

    mutating func u32() -> UInt32 {
        UInt32(u8()) | UInt32(u8()) << 8 | UInt32(u8()) << 16 | UInt32(u8()) << 24
    }

    /// Any finite float32, as a Double: NaN ≠ NaN (and ∞ · 0 is NaN) would make equal lists
    /// compare unequal. Non-finite values are fuzzed where bytes are decoded as received.
    mutating func float() -> Double {
        let f = Float(bitPattern: u32())
        return f.isFinite ? Double(f) : 0
    }

    /// Up to `maxBytes` bytes as a valid string; each invalid byte becomes a 3-byte U+FFFD,
    /// so its UTF-8 is at most 3 × `maxBytes` bytes.
    mutating func string(maxBytes: Int) -> String {
        let n = min(Int(u8()) % (maxBytes + 1), rest.count)
        defer { rest = rest.dropFirst(n) }
        return String(decoding: rest.prefix(n), as: UTF8.self)
    }
}
