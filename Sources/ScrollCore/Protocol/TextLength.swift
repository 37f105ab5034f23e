/// How long a piece of text may be, in characters (what a person counts) and in UTF-8 bytes
/// (what is stored and sent). One character can be any number of bytes (a letter followed by
/// thousands of combining marks is one), so both are bounded. Four bytes a character, the most
/// one Unicode scalar takes, leaves room for any real text: accents, CJK, a few emoji sequences.
public struct TextLength: Sendable, CustomStringConvertible {
    public let characters: ClosedRange<Int>
    public var maxBytes: Int { 4 * characters.upperBound }

    public init(_ characters: ClosedRange<Int>) { self.characters = characters }

    /// "1–32 characters and at most 128 bytes in UTF-8".
    public var description: String {
        "\(characters.lowerBound)–\(characters.upperBound) characters and at most \(maxBytes) bytes in UTF-8"
    }

    public func admits(_ text: some StringProtocol) -> Bool {
        // Bytes first: counting characters walks the whole string.
        text.utf8.count <= maxBytes && characters.contains(text.count)
    }
}

extension StringProtocol {
    /// Its first `characters` characters, to quote in a message, cut between scalars to at most
    /// 4 bytes a character: what a refusal quotes stays small whatever was sent.
    public func excerpt(_ characters: Int) -> String {
        let head = prefix(characters)
        let limit = 4 * characters
        guard head.utf8.count > limit else { return String(head) }
        var bytes = 0
        let kept = head.unicodeScalars.prefix { scalar in
            bytes += UTF8.width(scalar)
            return bytes <= limit
        }
        return String(String.UnicodeScalarView(kept))
    }
}
