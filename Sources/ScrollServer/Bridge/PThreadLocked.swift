#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a pthread mutex. `Synchronization.Mutex` would do, but on Linux it hands a
/// contended lock over in the kernel (FUTEX_LOCK_PI), where ThreadSanitizer cannot see it: `make
/// tsan` reported each contended use as a race. ThreadSanitizer understands pthread mutexes.
final class PThreadLocked<Value: Sendable>: @unchecked Sendable {
    // Allocated once, never moved: a pthread mutex must stay at one address.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
