/// The comments a recorded trace starts with (docs/TRACES.md, "Recording"): `# scene: NAME`
/// and `# seed: N`, among its first lines.
public enum TraceHeader {
    /// The scene the trace was recorded in, if it names one.
    public static func scene(in text: String) -> String? { value("scene:", in: text) }

    /// The seed of the room's dice (random draws replay the same with it).
    public static func seed(in text: String) -> UInt64? { value("seed:", in: text).flatMap { UInt64($0) } }

    private static func value(_ key: Substring, in text: String) -> String? {
        for line in text.split(separator: "\n", maxSplits: 20) where line.hasPrefix("#") {
            let words = line.dropFirst().split(separator: " ")
            if words.count == 2, words[0] == key { return String(words[1]) }
        }
        return nil
    }
}
