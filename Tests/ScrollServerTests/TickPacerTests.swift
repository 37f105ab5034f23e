import Foundation
import Testing

@testable import ScrollServer

/// The thread that wakes the service loop for the frame clock's tick (a real thread on the
/// monotonic clock: its waits have deadlines; what is asserted is order, not how fast).
struct TickPacerTests {
    /// Wake times (MonotonicClock), and a semaphore signalled at each.
    final class Wakes: @unchecked Sendable {
        let lock = NSLock()
        private(set) var times: [Double] = []
        let signal = DispatchSemaphore(value: 0)

        func woke() {
            lock.withLock { times.append(MonotonicClock.now()) }
            signal.signal()
        }

        var count: Int { lock.withLock { times.count } }
        var first: Double? { lock.withLock { times.first } }
    }

    @Test("wakes once, at or after the time armed; arming again replaces it, earlier or later")
    func wakesOncePerArm() throws {
        let wakes = Wakes()
        let pacer = TickPacer { wakes.woke() }
        // Armed for 30 ms, then for 10 ms: one wake, for the second.
        let start = MonotonicClock.now()
        pacer.arm(at: start + 0.03)
        pacer.arm(at: start + 0.01)
        #expect(wakes.signal.wait(timeout: .now() + 5) == .success)
        #expect(try #require(wakes.first) >= start + 0.01)
        // Armed for 200 ms, then for 250 ms: the wake waits for the second.
        let again = MonotonicClock.now()
        pacer.arm(at: again + 0.2)
        pacer.arm(at: again + 0.25)
        #expect(wakes.signal.wait(timeout: .now() + 5) == .success)
        #expect(wakes.lock.withLock { wakes.times[1] } >= again + 0.25)
        // A time already past wakes at once.
        pacer.arm(at: MonotonicClock.now() - 1)
        #expect(wakes.signal.wait(timeout: .now() + 5) == .success)
        pacer.stop()
        // Stopped: no wake but the three armed.
        #expect(wakes.count == 3)
    }

    @Test("stop ends the thread while it waits, armed or not; nothing wakes after it")
    func stopWhileWaiting() {
        let idle = Wakes()
        let never = TickPacer { idle.woke() }
        never.stop()
        let armed = Wakes()
        let later = TickPacer { armed.woke() }
        later.arm(at: MonotonicClock.now() + 3600)
        later.stop()
        #expect(idle.count == 0 && armed.count == 0)
    }
}
