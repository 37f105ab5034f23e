import Foundation

/// A point in monotonic time that a wait must end by.
struct Deadline {
    private let end: ContinuousClock.Instant

    init(seconds: Double) {
        end = .now + .milliseconds(Int64((max(seconds, 0) * 1000).rounded(.up)))
    }

    var hasPassed: Bool { ContinuousClock.now >= end }

    /// Seconds left, never negative.
    var remaining: Double {
        let left = ContinuousClock.now.duration(to: end)
        guard left > .zero else { return 0 }
        return Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
    }

    /// The same instant on the wall clock, for APIs such as `NSCondition.wait(until:)`.
    var date: Date { Date(timeIntervalSinceNow: remaining) }
}
