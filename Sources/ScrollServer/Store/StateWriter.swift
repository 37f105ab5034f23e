import Logging

/// Writes rooms' settled state off the service thread (docs/STATE.md). What is handed in is
/// written within `delay` as one batch (one transaction); a room handed in twice meanwhile is
/// written once, with its latest state. A failed batch is kept and tried again.
final class StateWriter: Sendable {
    /// How long a batch gathers before it is written: what `kill -9` may lose of settled state.
    static let delay = 0.05
    /// After a failed write, the wait before the next try.
    static let retryDelay = 1.0
    /// At close, the wait between the last tries (the process is about to end).
    static let closeRetryDelay = 0.25

    private struct Pending {
        var saves: [String: StoredRoom] = [:]
        var removals: Set<String> = []
        var scheduled = false
        var closed = false
        /// Why the last write failed (logged once until one succeeds); nil: it did not.
        var failing: String?
        /// Batches written, and tries that failed (`/metrics`).
        var writes = 0, failures = 0
    }

    /// What `/metrics` and `/readyz` tell of the store.
    package struct Health: Equatable {
        package var writes: Int
        package var failures: Int
        /// Why the last write failed; nil: it succeeded, or none was tried yet.
        package var failing: String?
    }

    let store: RoomStore
    private let logger: Logger
    private let delay: Double, retryDelay: Double
    /// Not `Synchronization.Mutex`: the service thread and the writer contend for it, and
    /// ThreadSanitizer cannot see a contended `Mutex` handed over (docs/RELIABILITY.md).
    private let pending = PThreadLocked(Pending())
    /// Where flushes run (off the service thread), and the clock of the delays.
    private let scheduler: any Scheduler

    init(
        store: RoomStore, logger: Logger,
        scheduler: any Scheduler = DispatchScheduler(label: "widget-server.state-writer"),
        delay: Double = StateWriter.delay, retryDelay: Double = StateWriter.retryDelay
    ) {
        self.store = store
        self.logger = logger
        self.scheduler = scheduler
        self.delay = delay
        self.retryDelay = retryDelay
    }

    package var health: Health {
        pending.withLock { Health(writes: $0.writes, failures: $0.failures, failing: $0.failing) }
    }

    func save(_ room: StoredRoom) {
        pending.withLock { p in
            guard !p.closed else { return }
            p.removals.remove(room.name)
            p.saves[room.name] = room
            schedule(&p, after: delay)
        }
    }

    func remove(_ name: String) {
        pending.withLock { p in
            guard !p.closed else { return }
            p.saves[name] = nil
            p.removals.insert(name)
            schedule(&p, after: delay)
        }
    }

    /// Writes whatever is pending, waiting for it (a failed write is tried twice more, a quarter
    /// second apart: the process is about to end), then closes the store. What still could not be
    /// written is logged by room name. Later calls do nothing.
    func close() {
        scheduler.sync {
            flush()
            for _ in 0..<2 where pending.withLock({ !$0.saves.isEmpty || !$0.removals.isEmpty }) {
                scheduler.pause(Self.closeRetryDelay)
                flush()
            }
            let lost = pending.withLock { p -> [String] in
                p.closed = true
                return p.saves.keys.sorted()
            }
            if !lost.isEmpty {
                logger.error("room state not stored before exit", metadata: ["rooms": "\(lost.joined(separator: ","))"])
            }
            store.close()
        }
    }

    private func schedule(_ p: inout Pending, after delay: Double) {
        guard !p.scheduled else { return }
        p.scheduled = true
        // Weak: work still pending after close (a retry) must not keep the writer; a scheduler
        // that never runs it (the tests' hand-moved clock) would otherwise hold it in a cycle.
        scheduler.schedule(after: delay) { [weak self] in self?.flush() }
    }

    /// On the scheduler: one transaction for the saves, one for the removals.
    private func flush() {
        let (saves, removals) = pending.withLock { p -> ([StoredRoom], [String]) in
            guard !p.closed else { return ([], []) }
            defer { p.saves = [:]; p.removals = []; p.scheduled = false }
            return (p.saves.values.sorted { $0.name < $1.name }, p.removals.sorted())
        }
        guard !saves.isEmpty || !removals.isEmpty else { return }
        do {
            if !saves.isEmpty { try store.save(saves) }
            if !removals.isEmpty { try store.remove(removals) }
            logger.debug(
                "stored room state",
                metadata: ["saved": "\(saves.map(\.name).joined(separator: ","))", "removed": "\(removals.count)"])
            pending.withLock { p in
                if p.failing != nil { logger.info("storing room state works again") }
                p.failing = nil
                p.writes += 1
            }
        } catch {
            pending.withLock { p in
                if p.failing == nil {
                    logger.error("cannot store room state; will try again", metadata: ["reason": "\(error)"])
                }
                p.failing = "\(error)"
                p.failures += 1
                // What came in meanwhile is newer: keep it over the failed batch.
                for room in saves where p.saves[room.name] == nil && !p.removals.contains(room.name) {
                    p.saves[room.name] = room
                }
                for name in removals where p.saves[name] == nil { p.removals.insert(name) }
                schedule(&p, after: retryDelay)
            }
        }
    }
}
