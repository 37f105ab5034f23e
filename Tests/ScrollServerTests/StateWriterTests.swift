import Foundation
import Synchronization
import Testing

@testable import ScrollServer

/// The writer between the service thread and the store (docs/STATE.md, "When it writes").
@Suite("State writer")
struct StateWriterTests {
    private func room(_ name: String, _ snapshot: String) -> StoredRoom {
        StoredRoom(name: name, scene: "demo", snapshot: snapshot, updated: 1)
    }

    /// Polls `condition` until it holds or `timeout` s pass.
    private func eventually(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(2000)
        }
        return try condition()
    }

    @Test("what is handed in meanwhile is one batch: a room saved three times is written once, with its latest state")
    func coalesces() throws {
        let store = InMemoryRoomStore()
        // A delay no test waits for: only close() writes.
        let writer = StateWriter(store: store, logger: CapturedLog().logger, delay: 3600)
        writer.save(room("a", "1"))
        writer.save(room("b", "1"))
        writer.save(room("a", "2"))
        writer.save(room("a", "3"))
        #expect(store.batches.isEmpty, "nothing is written per call")
        writer.close()
        #expect(store.batches == [[room("a", "3"), room("b", "1")]])
        #expect(store.isClosed)
    }

    @Test("a save reaches the store by itself, without waiting for close")
    func writesWithinTheDelay() throws {
        let store = InMemoryRoomStore()
        let writer = StateWriter(store: store, logger: CapturedLog().logger)
        writer.save(room("a", "1"))
        #expect(try eventually { try store.loadAll() == [room("a", "1")] })
        writer.close()
    }

    @Test("a removal wins over an earlier save of the same room, a save over an earlier removal")
    func removals() throws {
        let store = InMemoryRoomStore([room("old", "0"), room("back", "0")])
        let writer = StateWriter(store: store, logger: CapturedLog().logger, delay: 3600)
        writer.save(room("old", "1"))
        writer.remove("old")
        writer.remove("back")
        writer.save(room("back", "2"))
        writer.close()
        #expect(try store.loadAll() == [room("back", "2")])
    }

    @Test("nothing is written after close")
    func afterClose() throws {
        let store = InMemoryRoomStore()
        let writer = StateWriter(store: store, logger: CapturedLog().logger, delay: 0.001)
        writer.close()
        writer.save(room("late", "1"))
        writer.close()
        #expect(store.batches.isEmpty)
    }

    @Test("a failed write is logged once and tried again until it succeeds, with the latest state")
    func retries() throws {
        let store = FlakyStore(failures: 3)
        let log = CapturedLog()
        let writer = StateWriter(store: store, logger: log.logger, delay: 0.001, retryDelay: 0.01)
        writer.save(room("a", "1"))
        #expect(eventually { store.attempts >= 2 })
        writer.save(room("a", "2"))
        #expect(eventually { store.saved == [room("a", "2")] })
        writer.close()
        let errors = log.text.split(separator: "\n").filter { $0.hasPrefix("error cannot store room state") }
        #expect(errors.count == 1, "\(log.text)")
        #expect(log.text.contains("info storing room state works again"), "\(log.text)")
    }
}

/// A store whose first `failures` saves fail.
private final class FlakyStore: RoomStore {
    private let state: Mutex<(failures: Int, attempts: Int, saved: [StoredRoom])>
    init(failures: Int) { state = Mutex((failures, 0, [])) }

    var attempts: Int { state.withLock { $0.attempts } }
    var saved: [StoredRoom] { state.withLock { $0.saved } }

    func loadAll() throws(RoomStoreError) -> [StoredRoom] { saved }
    func save(_ rooms: [StoredRoom]) throws(RoomStoreError) {
        try state.withLock { (s) throws(RoomStoreError) in
            s.attempts += 1
            guard s.failures == 0 else {
                s.failures -= 1
                throw RoomStoreError("disk full")
            }
            s.saved = rooms
        }
    }
    func remove(_ names: [String]) throws(RoomStoreError) {}
    func close() {}
}
