/// A strict RFC 8259 reader for client messages and trace lines, written for the input path:
/// Foundation's JSONDecoder cost a sixth of the server's time per pointer move (docs/BENCHMARKS.md).
///
/// Objects keep their fields in the text's order, duplicates included (readers take the first, as
/// JSONDecoder did). Numbers are Doubles (beyond a Double: ±infinity, which every numeric field
/// rule refuses). A lone surrogate escape becomes U+FFFD, as JSONDecoder let it through. Refused:
/// trailing commas, leading zeros, control characters in strings, anything after the value, and
/// nesting deeper than `maxDepth`.
public enum JSONParser {
    public static let maxDepth = 512

    public struct Failure: Error, Equatable {
        /// Byte offset where the text stopped being JSON.
        public var offset: Int
    }

    public static func parse(_ text: String) throws(Failure) -> JSONValue {
        var text = text
        let result = text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return Result { () throws(Failure) -> JSONValue in try reader.document() }
        }
        return try result.get()
    }

    /// The reader, also used by `ClientMessage.readPointer` to read a pointer message's fields
    /// without building their tree.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0
        var depth = 0

        mutating func document() throws(Failure) -> JSONValue {
            let value = try self.value()
            skipSpace()
            guard at == bytes.count else { throw fail() }
            return value
        }

        func fail() -> Failure { Failure(offset: at) }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0A, 0x0D: at += 1
                default: return
                }
            }
        }

        mutating func value() throws(Failure) -> JSONValue {
            skipSpace()
            guard at < bytes.count else { throw fail() }
            switch bytes[at] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let n = word.utf8CodeUnitCount
            guard at + n <= bytes.count else { throw fail() }
            for i in 0..<n where bytes[at + i] != word.utf8Start[i] { throw fail() }
            at += n
        }

        mutating func nested() throws(Failure) {
            depth += 1
            guard depth <= JSONParser.maxDepth else { throw fail() }
        }

        mutating func object() throws(Failure) -> JSONValue {
            try nested()
            at += 1
            var fields: [(String, JSONValue)] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                depth -= 1
                return .object(fields)
            }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail() }
                let key = try string()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail() }
                at += 1
                fields.append((key, try value()))
                skipSpace()
                guard at < bytes.count else { throw fail() }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                guard bytes[at] == UInt8(ascii: "}") else { throw fail() }
                at += 1
                depth -= 1
                return .object(fields)
            }
        }

        mutating func array() throws(Failure) -> JSONValue {
            try nested()
            at += 1
            var items: [JSONValue] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                depth -= 1
                return .array(items)
            }
            while true {
                items.append(try value())
                skipSpace()
                guard at < bytes.count else { throw fail() }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                guard bytes[at] == UInt8(ascii: "]") else { throw fail() }
                at += 1
                depth -= 1
                return .array(items)
            }
        }

        /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func number() throws(Failure) -> Double {
            let start = at
            let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
            if negative { at += 1 }
            guard at < bytes.count, isDigit(bytes[at]) else { throw fail() }
            // The digits as an integer while it stays exact (`significant` past leading zeros).
            var mantissa: UInt64 = 0, significant = 0, fraction = 0
            if bytes[at] == UInt8(ascii: "0") {
                at += 1
            } else {
                digits(into: &mantissa, &significant)
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard at < bytes.count, isDigit(bytes[at]) else { throw fail() }
                let before = at
                digits(into: &mantissa, &significant)
                fraction = at - before
            }
            var exponent = 0
            if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
                at += 1
                var sign = 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                    if bytes[at] == UInt8(ascii: "-") { sign = -1 }
                    at += 1
                }
                guard at < bytes.count, isDigit(bytes[at]) else { throw fail() }
                while at < bytes.count, isDigit(bytes[at]) {
                    exponent = min(exponent * 10 + Int(bytes[at] - UInt8(ascii: "0")), Self.exponentCap)
                    at += 1
                }
                exponent *= sign
            }
            // Clinger's fast path: an integer of at most 15 digits and a power of ten of at most
            // 22 are both exact doubles, and one multiplication or division of exact doubles is
            // rounded correctly, so this is the double the text names (as Double's parser gives).
            let power = exponent - fraction
            // A capped exponent stands for a larger one: its power is not known (Double's parser reads it).
            if significant <= 15, power >= -22, power <= 22, abs(exponent) < Self.exponentCap {
                let m = Double(mantissa)
                let d = power < 0 ? m / Self.powersOfTen[-power] : m * Self.powersOfTen[power]
                return negative ? -d : d
            }
            // The grammar above is a subset of what Double's parser takes; it never fails here.
            guard let d = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self))
            else { throw Failure(offset: start) }
            return d
        }

        /// Beyond any double's exponent, however many digits the number has before it.
        static let exponentCap = 1 << 40
        /// 1e0 … 1e22: every one an exact double.
        static let powersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
            1e19, 1e20, 1e21, 1e22,
        ]

        /// Digits, added to `mantissa` while `significant` (digits past leading zeros) is at most 15.
        mutating func digits(into mantissa: inout UInt64, _ significant: inout Int) {
            while at < bytes.count, isDigit(bytes[at]) {
                if significant > 0 || bytes[at] != UInt8(ascii: "0") {
                    significant += 1
                    if significant <= 15 { mantissa = mantissa * 10 + UInt64(bytes[at] - UInt8(ascii: "0")) }
                }
                at += 1
            }
        }

        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

        mutating func string() throws(Failure) -> String {
            at += 1
            let start = at
            // Fast path: no escapes (the usual case) is one copy of the bytes.
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    defer { at += 1 }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                }
                if b == UInt8(ascii: "\\") { break }
                guard b >= 0x20 else { throw fail() }
                at += 1
            }
            var out = Array(bytes[start..<at])
            while at < bytes.count {
                let b = bytes[at]
                at += 1
                switch b {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"): try escape(into: &out)
                case 0..<0x20: at -= 1; throw fail()
                default: out.append(b)
                }
            }
            throw fail()
        }

        mutating func escape(into out: inout [UInt8]) throws(Failure) {
            guard at < bytes.count else { throw fail() }
            let e = bytes[at]
            at += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"),
                    bytes[at + 1] == UInt8(ascii: "u")
                {
                    let saved = at
                    at += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    } else {
                        at = saved  // not a pair: the high half stands alone, the next escape is read next
                    }
                }
                UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { out.append($0) }
            default: at -= 1; throw fail()
            }
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard at + 4 <= bytes.count else { throw fail() }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[at]
                let digit: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
                default: throw fail()
                }
                v = v << 4 | digit
                at += 1
            }
            return v
        }
    }
}
