/// The input path's most common message, a pointer's, read straight into its fields: no JSON tree
/// (a box a value), no field list, the same rules. A move was 12 of the server's 64 allocations
/// for a drag's move, in the tree alone (docs/BENCHMARKS.md, "Input → frame").
extension ClientMessage {
    /// The pointer message `text` is, read as `parse` reads it; nil when it is anything else or
    /// anything this reader leaves to `parse`: another type, a field of the wrong type or out of
    /// its range, a null, a missing field, `coalesced` other than a list of [x, y, t] numbers,
    /// text that is not JSON. A name given twice counts the first time, as `JSONFields` has it;
    /// fields of other names are read as JSON and ignored (the page sends `buttons`).
    static func readPointer(_ text: String) -> ClientMessage? { readPointerAndTime(text)?.message }

    /// `readPointer`, and the text of its newest sample's `t` (nil when longer than
    /// `NumberText.capacity`).
    static func readPointerAndTime(_ text: String) -> (message: ClientMessage, time: NumberText?)? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = JSONParser.Reader(bytes: bytes)
            guard let (message, time) = try? reader.pointer() else { return nil }
            return (message, NumberText(UnsafeBufferPointer(rebasing: bytes[time])))
        }
    }
}

extension JSONParser.Reader {
    /// Not one of `readPointer`'s: `parse` decides.
    private struct Elsewhere: Error {}

    /// The pointer message the whole text is.
    fileprivate mutating func pointer() throws -> (message: ClientMessage, time: Range<Int>) {
        // The names read so far, a bit each (others are never read, so never count).
        var seen: UInt8 = 0
        var phase: PointerPhase?, id: Int?, pointerType: String?, x: Double?, y: Double?, t: Double?
        var coalesced: [ClientMessage.Sample]?
        // Where `t`'s text lies, and the last coalesced sample's.
        var tText = 0..<0, lastSampleTText = 0..<0
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "{") else { throw Elsewhere() }
        try nested()  // as `object` counts it, so a field's value may nest as deep as there
        at += 1
        skipSpace()
        guard at < bytes.count, bytes[at] != UInt8(ascii: "}") else { throw Elsewhere() }
        repeat {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Elsewhere() }
            let name = try string()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw Elsewhere() }
            at += 1
            skipSpace()
            let bit = Self.bit(of: name)
            if bit == 0 || seen & bit != 0 {
                try skip()
                continue
            }
            seen |= bit
            switch bit {
            case Self.typeBit:
                // Any other type is `parse`'s at once (the first `type` is the one that counts).
                guard try text() == "pointer" else { throw Elsewhere() }
            case 2: phase = try given(FieldRules.pointerPhase.validate(text()))
            case 4: id = try given(FieldRules.pointerID.validate(number()))
            case 8: pointerType = try given(FieldRules.pointerType.validate(text()))
            case 16: x = try given(FieldRules.coordinate.validate(number()))
            case 32: y = try given(FieldRules.coordinate.validate(number()))
            case 64:
                let start = at
                t = try given(FieldRules.clientTime.validate(number()))
                tText = start..<at
            default: coalesced = try samples(lastT: &lastSampleTText)
            }
        } while try comma()
        guard seen & Self.typeBit != 0, let phase, let id, let x, let y, let t else { throw Elsewhere() }
        // A move's coalesced samples stand for its own (read only for a move, as `parse` does).
        let samples = phase == .move ? coalesced ?? [.init(x: x, y: y, t: t)] : [.init(x: x, y: y, t: t)]
        let newest = phase == .move && coalesced != nil ? lastSampleTText : tText
        return (.pointer(.init(phase: phase, id: id, pointerType: pointerType ?? "mouse", samples: samples)), newest)
    }

    /// The names `pointer` reads, a bit each (0: another name). A switch, not a table: the names
    /// are short, and hashing each one cost more than comparing it.
    private static let typeBit: UInt8 = 1
    private static func bit(of name: String) -> UInt8 {
        switch name {
        case "type": typeBit
        case "phase": 2
        case "id": 4
        case "pointerType": 8
        case "x": 16
        case "y": 32
        case "t": 64
        case "coalesced": 128
        default: 0
        }
    }

    /// `value`, or `parse` decides (it words the error).
    private func given<T>(_ value: T?) throws -> T {
        guard let value else { throw Elsewhere() }
        return value
    }

    /// After a field: true at a comma (another field follows), false at the object's end, which
    /// must end the text.
    private mutating func comma() throws -> Bool {
        skipSpace()
        guard at < bytes.count else { throw Elsewhere() }
        if bytes[at] == UInt8(ascii: ",") {
            at += 1
            return true
        }
        guard bytes[at] == UInt8(ascii: "}") else { throw Elsewhere() }
        at += 1
        skipSpace()
        guard at == bytes.count else { throw Elsewhere() }
        return false
    }

    /// A value read as JSON and dropped; a number or a string without making a tree of it (the
    /// page's `buttons` comes with every move).
    private mutating func skip() throws {
        guard at < bytes.count else { throw Elsewhere() }
        switch bytes[at] {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        default: _ = try value()
        }
    }

    private mutating func text() throws -> String {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Elsewhere() }
        return try string()
    }

    /// `coalesced` as `FieldRules.coalesced` and `FieldRules.sample` read it; anything else is
    /// `parse`'s. `lastT`: where the last sample's `t` lies.
    private mutating func samples(lastT: inout Range<Int>) throws -> [ClientMessage.Sample] {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "[") else { throw Elsewhere() }
        at += 1
        var out: [ClientMessage.Sample] = []
        skipSpace()
        // An empty list breaks `FieldRules.coalesced`: `parse` words it.
        guard at < bytes.count, bytes[at] != UInt8(ascii: "]") else { throw Elsewhere() }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "["), FieldRules.coalescedCount.contains(out.count + 1)
            else { throw Elsewhere() }
            at += 1
            let sx = try item(then: ",").value, sy = try item(then: ",").value, st = try item(then: "]")
            lastT = st.text
            guard let sample = FieldRules.sample(x: sx, y: sy, t: st.value) else { throw Elsewhere() }
            out.append(sample)
            skipSpace()
            guard at < bytes.count else { throw Elsewhere() }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            guard bytes[at] == UInt8(ascii: "]") else { throw Elsewhere() }
            at += 1
            return out
        }
    }

    /// A number and where its text lies, then `next`.
    private mutating func item(then next: Unicode.Scalar) throws -> (value: Double, text: Range<Int>) {
        skipSpace()
        let start = at
        let n = try number()
        let text = start..<at
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: next) else { throw Elsewhere() }
        at += 1
        return (n, text)
    }
}
