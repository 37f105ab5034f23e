import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Runs work later, one item at a time: the state writer's batching delay and retries come from
/// here, so a test can move time by hand (`ManualScheduler` in the tests) instead of waiting.
package protocol Scheduler: Sendable {
    /// Runs `work` once `seconds` have passed, after earlier work.
    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void)
    /// Runs `work` now, after any work already running, and waits for it.
    func sync(_ work: () -> Void)
    /// Waits `seconds` (inside `sync`: the process is about to end and nothing else is due).
    func pause(_ seconds: Double)
}

/// The real one: a serial dispatch queue off the service thread.
package struct DispatchScheduler: Scheduler {
    private let queue: DispatchQueue

    package init(label: String) { queue = DispatchQueue(label: label) }

    package func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds, execute: work)
    }

    package func sync(_ work: () -> Void) { queue.sync(execute: work) }

    package func pause(_ seconds: Double) { usleep(useconds_t(seconds * 1e6)) }
}
