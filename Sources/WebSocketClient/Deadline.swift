import Foundation

/// A point in monotonic time that a blocking call or wait must finish by.
public struct Deadline: Sendable {
    private let end: ContinuousClock.Instant

    public init(seconds: Double) {
        end = .now + .milliseconds(Int64((max(seconds, 0) * 1000).rounded(.up)))
    }

    public var hasPassed: Bool { ContinuousClock.now >= end }

    /// Seconds left, never negative.
    public var remaining: Double {
        let left = ContinuousClock.now.duration(to: end)
        guard left > .zero else { return 0 }
        return Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
    }

    /// The same instant on the wall clock, for APIs such as `NSCondition.wait(until:)`.
    public var date: Date { Date(timeIntervalSinceNow: remaining) }

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
