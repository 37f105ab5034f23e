import Foundation

extension ServerMessage {
    /// The events of an `events` message's `ahead` runs (`ServerMessage.runs`), as JSONSerialization
    /// reads the message: each run's events in order, each with its `t` (s) and its `text` rebuilt
    /// from a format. As the page reads them (Public/js/events-ahead.js), for Swift clients: the
    /// tests and tools that follow what a page plays.
    public static func aheadEvents(_ ahead: Any?) -> [[String: Any]] {
        var events: [[String: Any]] = []
        for case let run as [String: Any] in ahead as? [Any] ?? [] {
            guard let t0 = (run["t0"] as? NSNumber)?.doubleValue, let gaps = run["dt"] as? [Any] else { continue }
            // In whole microseconds, as they were sent: the sum lands on each time exactly.
            var micros = (t0 * 1e6).rounded()
            var times = [micros / 1e6]
            for gap in gaps {
                // A gap, or `[gap, count]`: that gap count times over.
                let (size, count) =
                    (gap as? [NSNumber]).map { ($0.first?.doubleValue ?? 0, $0.count == 2 ? $0[1].intValue : 0) }
                    ?? ((gap as? NSNumber)?.doubleValue ?? 0, 1)
                for _ in 0..<max(count, 0) {
                    micros += (size * 1000).rounded()
                    times.append(micros / 1e6)
                }
            }
            let format = (run["text"] as? [String: Any]).flatMap(RunTextFormat.init(object:))
            let fields = run.filter { $0.key != "t0" && $0.key != "dt" }
            for (i, t) in times.enumerated() {
                var event = fields.mapValues { value in
                    (value as? [Any]).map { i < $0.count ? $0[i] : NSNull() } ?? value
                }
                event["t"] = t
                if let format {
                    event["text"] = (event["value"] as? NSNumber).flatMap { format.text($0.doubleValue) }
                }
                events.append(event)
            }
        }
        return events
    }
}

extension RunTextFormat {
    /// A run's `text` format as JSONSerialization reads it.
    init?(object: [String: Any]) {
        guard let fixed = object["fixed"] as? Int else { return nil }
        self.init(fixed: fixed, prefix: object["prefix"] as? String ?? "", suffix: object["suffix"] as? String ?? "")
    }
}
