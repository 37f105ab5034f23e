import Synchronization

@testable import ScrollServer

/// A scheduler whose time moves only when the test says: work due by then runs on the test's
/// thread, in order of due time, then of scheduling.
final class ManualScheduler: Scheduler {
    private struct Item {
        let due: Double
        let order: Int
        let work: @Sendable () -> Void
    }
    private struct Contents {
        var now = 0.0
        var items: [Item] = []
        var scheduled = 0
        var pauses: [Double] = []
    }
    private let contents = Mutex(Contents())

    var now: Double { contents.withLock { $0.now } }
    /// When each item was asked for, relative to the time it was scheduled at: the delays used.
    var pending: [Double] {
        contents.withLock { c in c.items.map { (($0.due - c.now) * 1e9).rounded() / 1e9 }.sorted() }
    }
    /// The waits `pause` was asked for (at close).
    var pauses: [Double] { contents.withLock { $0.pauses } }

    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        contents.withLock { c in
            c.scheduled += 1
            c.items.append(Item(due: c.now + seconds, order: c.scheduled, work: work))
        }
    }

    func sync(_ work: () -> Void) { work() }

    /// Time passes, but nothing scheduled runs meanwhile: a pause happens inside `sync`, which a
    /// serial queue finishes before it runs anything else.
    func pause(_ seconds: Double) {
        contents.withLock { c in
            c.pauses.append(seconds)
            c.now += seconds
        }
    }

    /// Moves time on by `seconds`, running each item as its time comes (work may schedule more).
    func advance(by seconds: Double) {
        let end = now + seconds
        while true {
            let next = contents.withLock { c -> Item? in
                guard
                    let i = c.items.indices.filter({ c.items[$0].due <= end + 1e-12 })
                        .min(by: { (c.items[$0].due, c.items[$0].order) < (c.items[$1].due, c.items[$1].order) })
                else { return nil }
                let item = c.items.remove(at: i)
                c.now = max(c.now, item.due)
                return item
            }
            guard let next else { break }
            next.work()
        }
        contents.withLock { $0.now = end }
    }
}
