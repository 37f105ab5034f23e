import Synchronization
import Testing

@testable import ScrollServer

/// The writer between the service thread and the store (docs/STATE.md, "When it writes").
@Suite("State writer")
struct StateWriterTests {
    private func room(_ name: String, _ snapshot: String) -> StoredRoom {
        StoredRoom(name: name, scene: "demo", snapshot: snapshot, updated: 1)
    }

    /// A writer on `store` whose delays run on a hand-moved clock, and what it logs.
    private func writer(_ store: any RoomStore) -> (StateWriter, ManualScheduler, CapturedLog) {
        let clock = ManualScheduler(), log = CapturedLog()
        return (StateWriter(store: store, logger: log.logger, scheduler: clock), clock, log)
    }

    @Test(
        "what is handed in within 50 ms is one batch: a room saved three times is written once, with its latest state")
    func coalesces() throws {
        let store = InMemoryRoomStore()
        let (writer, clock, _) = writer(store)
        writer.save(room("a", "1"))
        clock.advance(by: 0.01)
        writer.save(room("b", "1"))
        writer.save(room("a", "2"))
        clock.advance(by: 0.03)
        writer.save(room("a", "3"))
        #expect(clock.pending == [0.01], "one write, 50 ms after the first save")
        clock.advance(by: 0.0099)
        #expect(store.batches.isEmpty, "nothing is written before the delay")
        clock.advance(by: 0.0001)
        #expect(store.batches == [[room("a", "3"), room("b", "1")]])
        writer.save(room("c", "1"))
        #expect(clock.pending == [0.05], "the next save starts a new 50 ms batch")
        clock.advance(by: 0.05)
        #expect(store.batches.count == 2)
        writer.close()
        #expect(store.isClosed)
    }

    @Test("a removal wins over an earlier save of the same room, a save over an earlier removal")
    func removals() throws {
        let store = InMemoryRoomStore([room("old", "0"), room("back", "0")])
        let (writer, _, _) = writer(store)
        writer.save(room("old", "1"))
        writer.remove("old")
        writer.remove("back")
        writer.save(room("back", "2"))
        writer.close()
        #expect(try store.loadAll() == [room("back", "2")])
        #expect(store.batches == [[room("back", "2")]], "close writes what is pending at once")
    }

    @Test("nothing is written after close")
    func afterClose() throws {
        let store = InMemoryRoomStore()
        let (writer, clock, _) = writer(store)
        writer.close()
        writer.save(room("late", "1"))
        clock.advance(by: 1)
        writer.close()
        #expect(store.batches.isEmpty)
        #expect(clock.pending.isEmpty)
    }

    @Test("a failed write is logged once and tried again every second until it succeeds, with the latest state")
    func retries() throws {
        let store = FlakyStore(failures: 3)
        let (writer, clock, log) = writer(store)
        writer.save(room("a", "1"))
        clock.advance(by: 0.05)
        #expect(store.attempts == 1)
        #expect(clock.pending == [1.0], "the next try a second later")
        clock.advance(by: 0.999)
        #expect(store.attempts == 1)
        clock.advance(by: 0.001)
        #expect(store.attempts == 2)
        writer.save(room("a", "2"))
        #expect(clock.pending == [1.0], "a save while retrying joins the retry, not a new batch")
        clock.advance(by: 2)
        #expect(store.attempts == 4)
        #expect(store.saved == [room("a", "2")])
        writer.close()
        let errors = log.text.split(separator: "\n").filter { $0.hasPrefix("error cannot store room state") }
        #expect(errors.count == 1, "\(log.text)")
        #expect(log.text.contains("info storing room state works again"), "\(log.text)")
    }

    @Test("at close a failing write is tried twice more, a quarter second apart, and what is lost is named")
    func closeRetries() throws {
        let store = FlakyStore(failures: 10)
        let (writer, clock, log) = writer(store)
        writer.save(room("b", "1"))
        writer.save(room("a", "1"))
        writer.close()
        #expect(store.attempts == 3)
        #expect(clock.pauses == [0.25, 0.25])
        #expect(log.text.contains("error room state not stored before exit rooms=a,b"), "\(log.text)")
    }
}

/// A store whose first `failures` saves fail.
final class FlakyStore: RoomStore {
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
