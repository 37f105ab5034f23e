import Foundation

extension ServerMessage {
    /// The events of an `events` message's `ahead` runs (`ServerMessage.runs`), as JSONSerialization
    /// reads the message: each run's events in order, each with its `t` (s) and its `text` rebuilt
    /// from a format. As the page reads them (Public/js/events-ahead.js), for Swift clients: the
    /// tests and tools that follow what a page plays.
    public static func aheadEvents(_ ahead: Any?) -> [[String: Any]] {
        var events: [[String: Any]] = []
        var runTimes: [[Double]] = []
        for case let run as [String: Any] in ahead as? [Any] ?? [] {
            // A run at the times of an earlier one names it.
            let times: [Double]
            if let k = (run["times"] as? NSNumber)?.intValue {
                times = k >= 0 && k < runTimes.count ? runTimes[k] : []
            } else {
                guard let t0 = (run["t0"] as? NSNumber)?.doubleValue, let gaps = run["dt"] as? [Any] else { continue }
                times = Self.times(t0: t0, gaps: gaps)
            }
            runTimes.append(times)
            let format = (run["text"] as? [String: Any]).flatMap(RunTextFormat.init(object:))
            let steps = (run["steps"] as? [String: [NSNumber]]) ?? [:]
            let fields = run.filter { !["t0", "dt", "times", "steps"].contains($0.key) }
            for (i, t) in times.enumerated() {
                var event = fields.mapValues { value in
                    (value as? [Any]).map { i < $0.count ? $0[i] : NSNull() } ?? value
                }
                for (name, step) in steps where step.count == 2 {
                    event[name] = step[0].doubleValue + Double(i) * step[1].doubleValue
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

    /// A run's times from `t0` and its gaps (a gap, or `[gap, count]`: that gap count times over),
    /// added in whole microseconds as they were sent: the sum lands on each time exactly.
    static func times(t0: Double, gaps: [Any]) -> [Double] {
        var micros = (t0 * 1e6).rounded()
        var times = [micros / 1e6]
        for gap in gaps {
            let (size, count) =
                (gap as? [NSNumber]).map { ($0.first?.doubleValue ?? 0, $0.count == 2 ? $0[1].intValue : 0) }
                ?? ((gap as? NSNumber)?.doubleValue ?? 0, 1)
            for _ in 0..<max(count, 0) {
                micros += (size * 1000).rounded()
                times.append(micros / 1e6)
            }
        }
        return times
    }
}

extension RunTextFormat {
    /// A run's `text` format as JSONSerialization reads it.
    init?(object: [String: Any]) {
        guard let fixed = object["fixed"] as? Int else { return nil }
        self.init(fixed: fixed, prefix: object["prefix"] as? String ?? "", suffix: object["suffix"] as? String ?? "")
    }
}
