import Synchronization

/// Monotonic and wall time that move only when told: the switchboard's tests and widget-bench's
/// watcher run it on this, with every figure exact.
package final class ManualClock: Sendable {
    private let times = Mutex((now: 0.0, wall: 1_000_000.0))

    package init() {}

    package var now: Double { times.withLock { $0.now } }

    package func advance(by seconds: Double) {
        times.withLock {
            $0.now += seconds
            $0.wall += seconds
        }
    }

    package var clock: ServerClock { ServerClock(now: { self.now }, wall: { self.times.withLock { $0.wall } }) }
}

/// The transport as the switchboard sees it on a manual clock: what it asked for, nothing sent
/// anywhere. Its one tick timer, like the bridge's, fires once at the time last asked for.
package final class ManualWire: Wire {
    private let clock: ManualClock
    package private(set) var writesRequested: [UInt64] = []
    package private(set) var ticksRequested: [Double] = []
    package private(set) var sweepsRequested: [Double] = []
    package private(set) var leaseTicksRequested: [Double] = []
    /// When the tick timer fires (manual time), nil: not set.
    package var tickDue: Double?

    package init(clock: ManualClock) { self.clock = clock }

    package func requestWrite(_ client: UInt64) { writesRequested.append(client) }
    package func requestLeaseTick(after seconds: Double) { leaseTicksRequested.append(seconds) }
    package func requestTick(after seconds: Double) {
        ticksRequested.append(seconds)
        tickDue = clock.now + seconds
    }
    package func requestSweep(after seconds: Double) { sweepsRequested.append(seconds) }
}
