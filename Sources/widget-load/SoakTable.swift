import Foundation
import LoopbackTools

/// The soak report as Markdown (docs/RELIABILITY.md, "Soak" takes it as it is).
extension SoakReport {
    var markdown: String {
        var lines = [
            "| phase | reading | at (s) | cycles | connections open | server fds | server RSS (KiB) | peak so far (KiB) | counted − reference (KiB) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for (phase, samples) in [
            ("cycles", cycles?.samples), ("replay", replay?.samples), ("hostile", hostile?.samples),
        ] {
            guard let samples else { continue }
            let reference = SoakMemoryRule.reference(samples)
            let warmedUp = samples.contains { $0.label == "warm-up" }
            for s in samples {
                let level = SoakMemoryRule.level(s, warmedUp: warmedUp)
                let growth = if let level, let reference { "\(level - reference)" } else { "–" }
                lines.append(
                    "| \(phase) | \(s.label)\(s.moment.map { " (\($0))" } ?? "") | \(String(format: "%.1f", s.seconds)) | \(s.cycles.map(String.init) ?? "–") | "
                        + "\(s.connections) | \(s.fds.map(String.init) ?? "–") | \(s.rssKiB.map(String.init) ?? "–") | "
                        + "\(s.peakKiB.map(String.init) ?? "–") | \(growth) |"
                )
            }
        }
        lines.append("")
        if let c = cycles {
            lines.append(
                "Cycles: \(c.cycles) in \(String(format: "%.1f", c.seconds)) s; as planned: \(counts(c.completed)); "
                    + "failed: \(counts(c.failures))")
        }
        if let r = replay {
            lines.append(
                "Replay: \(r.clients) clients in \(r.rooms) rooms, \(String(format: "%.1f", r.seconds)) s, "
                    + "\(r.traces) traces, \(r.tracesPlayed) played; \(r.connections) connections "
                    + "(\(r.leaves) leaves); sent \(counts(r.sent)); received \(counts(r.received)); "
                    + "server errors: \(counts(r.serverErrors)); failed: \(counts(r.failures))")
        }
        if let h = hostile {
            let spans = h.closeSeconds.sorted { $0.key < $1.key }.map {
                "\($0.key) \(String(format: "%.1f", $0.value.min))–\(String(format: "%.1f", $0.value.max)) s"
            }
            lines.append(
                "Hostile: \(h.rounds) rounds (the first a warm-up), \(String(format: "%.1f", h.seconds)) s; "
                    + "opened \(counts(h.opened)); sent \(counts(h.sent)); readers counted \(h.clicks) clicks of "
                    + "\(h.clicksExpected) in \(h.eventsMessages) events messages (largest \(h.largestEventsMessage) bytes); "
                    + "new rooms per rush: \(h.rushes.map { "\($0.made) made, \($0.refused) refused" }.joined(separator: "; ")); "
                    + "closed after: \(spans.isEmpty ? "none" : spans.joined(separator: ", ")); "
                    + "expected: \(counts(h.expected)); failed: \(counts(h.failures))")
        }
        if let state { lines.append("Server state file: \(state)") }
        if let s = store {
            lines.append(
                "Store: \(s.writes) writes (\(s.writeFailures) failed); after a restart on the file, \(s.restored) rooms "
                    + "restored and \(s.same) of the \(s.rooms.count) the phases changed as they were, "
                    + "\(String(format: "%.1f", s.seconds)) s; failed: \(s.failures.isEmpty ? "none" : s.failures.joined(separator: "; "))"
            )
        }
        lines.append(
            "Bound: resident memory at most \(rssGrowthKiB) KiB over the reference (the reading before; in the "
                + "hostile phase the highest the server reached in the warm-up round, peaks between readings "
                + "included, and each later reading counts the peak so far), descriptors no more than before. "
                + (passed ? "Verdict: PASS" : "Verdict: FAIL: " + problems.joined(separator: "; ")))
        return lines.joined(separator: "\n")
    }

    private func counts(_ map: [String: Int]) -> String {
        map.isEmpty ? "none" : map.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}
