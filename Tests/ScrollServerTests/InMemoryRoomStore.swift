import ScrollServer
import Synchronization

/// A store that lives as long as the process: the tests' stand-in for SQLite.
final class InMemoryRoomStore: RoomStore {
    private struct Contents {
        var rooms: [String: StoredRoom] = [:]
        var batches: [[StoredRoom]] = []
        var closed = false
    }
    private let contents = Mutex(Contents())

    init(_ rooms: [StoredRoom] = []) {
        contents.withLock { c in for room in rooms { c.rooms[room.name] = room } }
    }

    /// Every `save` call's batch, in order (tests count the writes).
    var batches: [[StoredRoom]] { contents.withLock { $0.batches } }
    var isClosed: Bool { contents.withLock { $0.closed } }

    func loadAll() throws(RoomStoreError) -> [StoredRoom] {
        contents.withLock { $0.rooms.values.sorted { $0.updated > $1.updated } }
    }

    func save(_ rooms: [StoredRoom]) throws(RoomStoreError) {
        try contents.withLock { (c) throws(RoomStoreError) in
            guard !c.closed else { throw RoomStoreError("the store is closed") }
            c.batches.append(rooms)
            for room in rooms { c.rooms[room.name] = room }
        }
    }

    func remove(_ names: [String]) throws(RoomStoreError) {
        try contents.withLock { (c) throws(RoomStoreError) in
            guard !c.closed else { throw RoomStoreError("the store is closed") }
            for name in names { c.rooms[name] = nil }
        }
    }

    func close() { contents.withLock { $0.closed = true } }
}
