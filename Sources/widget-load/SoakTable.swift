import Foundation

/// The soak report as Markdown (docs/RELIABILITY.md, "Soak" takes it as it is).
extension SoakReport {
    var markdown: String {
        var lines = [
            "| phase | reading | at (s) | cycles | connections open | server fds | server RSS (KiB) | RSS − before (KiB) |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for (phase, samples) in [("cycles", cycles?.samples), ("replay", replay?.samples)] {
            guard let samples else { continue }
            let before = samples.first { $0.label == "before" }?.rssKiB
            for s in samples {
                let growth = if let rss = s.rssKiB, let before { "\(rss - before)" } else { "–" }
                lines.append(
                    "| \(phase) | \(s.label) | \(String(format: "%.1f", s.seconds)) | \(s.cycles.map(String.init) ?? "–") | "
                        + "\(s.connections) | \(s.fds.map(String.init) ?? "–") | \(s.rssKiB.map(String.init) ?? "–") | \(growth) |"
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
        lines.append(
            "Bound: resident memory at most \(rssGrowthKiB) KiB over the reading before, descriptors no more. "
                + (passed ? "Verdict: PASS" : "Verdict: FAIL: " + problems.joined(separator: "; ")))
        return lines.joined(separator: "\n")
    }

    private func counts(_ map: [String: Int]) -> String {
        map.isEmpty ? "none" : map.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}
