/// The same log line again within `interval` of logging it is counted instead of logged; the
/// next line logged says how many repeats were held back. lws repeats a line on every service
/// loop in some failures (a failed accept), which would otherwise write megabytes a second.
struct RepeatedLines {
    let interval: Double
    private var last: String?
    private var loggedAt = -Double.infinity
    private var held = 0

    init(interval: Double = 1) { self.interval = interval }

    /// nil: hold `line` back. Otherwise log it, with the number returned: the repeats of the line
    /// logged before it that were held back.
    mutating func admit(_ line: String, now: Double) -> Int? {
        if line == last && now - loggedAt < interval {
            held += 1
            return nil
        }
        defer { held = 0 }
        last = line
        loggedAt = now
        return held
    }
}
