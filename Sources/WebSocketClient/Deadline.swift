/// A point in monotonic time that blocking calls must finish by.
struct Deadline {
    private let end: ContinuousClock.Instant

    init(seconds: Double) {
        end = .now + .milliseconds(Int64((max(seconds, 0) * 1000).rounded(.up)))
    }

    var hasPassed: Bool { ContinuousClock.now >= end }

    /// Remaining time as a poll() timeout: rounded up so a short wait is never 0 ms
    /// (a busy loop), and never negative (which poll() reads as "forever").
    var pollMilliseconds: Int32 {
        let remaining = ContinuousClock.now.duration(to: end)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
