/// A Prometheus text exposition (a server's `/metrics`) read into its samples: each series as
/// written (`name` or `name{label="value",…}`) with its value; comments and blank lines skipped.
public struct MetricsText: Equatable, Sendable {
    public let samples: [String: Double]

    public init(_ text: String) {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            // The value follows the last space (label values here hold none).
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        self.samples = samples
    }

    /// The value of one series, e.g. `widget_messages_received_total{type="pointer"}`; nil if absent.
    public subscript(_ series: String) -> Double? { samples[series] }
}
