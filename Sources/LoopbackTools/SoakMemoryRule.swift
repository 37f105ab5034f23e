/// What a soak phase's resident memory is held to (docs/RELIABILITY.md, "Verdict"): no reading
/// after the warm-up more than the bound over the reference.
///
/// A phase with a warm-up round (the hostile one) reads peaks too: its stalled readers hold tens
/// of MiB of events for a few seconds, so a reading lands anywhere on that hill, and one round's
/// reading against another's measured where the readings fell, not growth. The peak since the
/// phase began (VmHWM) sees every hill's top: the warm-up's is the reference, and a later round
/// fails only by climbing higher than that by the bound.
public enum SoakMemoryRule {
    /// The quiet reading "before" (after the warm-up); with warm-up readings, the highest of it,
    /// them and the peak so far.
    public static func reference(_ samples: [ServerSample]) -> Int? {
        guard let before = samples.first(where: { $0.label == "before" }), let rss = before.rssKiB else { return nil }
        let warmUp = samples.filter { $0.label == "warm-up" }
        guard !warmUp.isEmpty else { return rss }
        return (warmUp.flatMap { [$0.rssKiB, $0.peakKiB] } + [before.peakKiB]).compactMap { $0 }.reduce(rss, max)
    }

    /// What a reading counts as: its resident memory, or with a warm-up, the peak it saw.
    public static func level(_ sample: ServerSample, warmedUp: Bool) -> Int? {
        guard warmedUp, let peak = sample.peakKiB else { return sample.rssKiB }
        return max(peak, sample.rssKiB ?? peak)
    }

    /// The highest reading after the warm-up ("during" or "after") and its level, if any.
    public static func highestLater(_ samples: [ServerSample]) -> (sample: ServerSample, kiB: Int)? {
        let warmedUp = samples.contains { $0.label == "warm-up" }
        return samples.filter { $0.label == "during" || $0.label == "after" }
            .compactMap { s in level(s, warmedUp: warmedUp).map { (s, $0) } }
            .max { $0.1 < $1.1 }
    }

    /// The problem, if the highest later reading is more than `bound` KiB over the reference.
    public static func problem(_ phase: String, samples: [ServerSample], bound: Int) -> String? {
        guard let reference = reference(samples), let (peak, kiB) = highestLater(samples), kiB - reference > bound
        else { return nil }
        let warmedUp = samples.contains { $0.label == "warm-up" }
        let what = warmedUp ? "at the warm-up's highest" : "before"
        let level = warmedUp ? "at most" : "at"
        return "\(phase): resident memory grew \(kiB - reference) KiB after the warm-up (bound \(bound) KiB): "
            + "\(reference) KiB \(what), \(kiB) KiB \(level) \(peak.label) at \(Int(peak.seconds)) s"
    }
}
