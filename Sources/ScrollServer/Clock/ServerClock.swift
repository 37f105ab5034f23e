/// The two times the server reads, in one place so that a test can hand in its own.
package struct ServerClock: Sendable {
    /// Seconds on a monotonic clock: scene time, rate limits, idleness.
    package var now: @Sendable () -> Double
    /// Unix time: only for stamps that outlive the process (a stored room's `updated`).
    package var wall: @Sendable () -> Double

    package init(now: @escaping @Sendable () -> Double, wall: @escaping @Sendable () -> Double) {
        self.now = now
        self.wall = wall
    }

    package static let system = ServerClock(now: MonotonicClock.now, wall: WallClock.now)
}
