#if canImport(Glibc)
    import Glibc
#endif

/// Wakes the service loop when the frame clock's tick falls due. An lws timer would do it, but
/// lws waits in poll(2) for whole milliseconds, rounded down: a timer due 0.4 ms after a whole
/// millisecond made the loop poll without waiting until it fell due, ~860 polls a tick and 52,000
/// a second while one room moved (docs/BENCHMARKS.md). This thread sleeps to the tick on
/// CLOCK_MONOTONIC and calls `wake` (`lws_cancel_service`), which ends lws's wait at once.
final class TickPacer: @unchecked Sendable {
    // Allocated once, never moved: a pthread mutex and condition must stay at one address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread = pthread_t()
    private let wake: @Sendable () -> Void
    // Behind `mutex`:
    private var due: Double?
    private var stopping = false

    /// Starts the thread; `wake` is called on it, once per `arm`, at or after the time armed.
    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        let me = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                let pacer = Unmanaged<TickPacer>.fromOpaque(context!).takeRetainedValue()
                pacer.run()
                return nil
            }, me)
        precondition(started == 0, "could not start the tick thread (\(started))")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Wake at `time` (MonotonicClock seconds) instead of whatever was armed. Only an earlier time
    /// wakes the thread to wait again: input moves a room's tick later on every move (the frame
    /// clock's phase), and a thread woken for each would cost the input's frame a context switch.
    /// A later one is found when the earlier time comes.
    func arm(at time: Double) {
        pthread_mutex_lock(mutex)
        let sooner = due.map { time < $0 } ?? true
        due = time
        if sooner { pthread_cond_signal(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// Ends the thread and waits for it; `wake` is not called after this returns.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        pthread_join(thread, nil)
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while !stopping {
            guard let time = due else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            if MonotonicClock.now() >= time {
                due = nil
                pthread_mutex_unlock(mutex)
                wake()
                pthread_mutex_lock(mutex)
                continue
            }
            let nanoseconds = min(Int((time - time.rounded(.down)) * 1e9), 999_999_999)
            var deadline = timespec(tv_sec: Int(time), tv_nsec: nanoseconds)
            pthread_cond_timedwait(condition, mutex, &deadline)
        }
        pthread_mutex_unlock(mutex)
    }
}
