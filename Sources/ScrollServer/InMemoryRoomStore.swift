import Synchronization

/// A store that lives as long as the process: for tests, and a server that needs none on disk.
public final class InMemoryRoomStore: RoomStore {
    private struct Contents {
        var rooms: [String: StoredRoom] = [:]
        var batches: [[StoredRoom]] = []
        var closed = false
    }
    private let contents = Mutex(Contents())

    public init(_ rooms: [StoredRoom] = []) {
        contents.withLock { c in for room in rooms { c.rooms[room.name] = room } }
    }

    /// Every `save` call's batch, in order (tests count the writes).
    public var batches: [[StoredRoom]] { contents.withLock { $0.batches } }
    public var isClosed: Bool { contents.withLock { $0.closed } }

    public func loadAll() throws(RoomStoreError) -> [StoredRoom] {
        contents.withLock { $0.rooms.values.sorted { $0.updated > $1.updated } }
    }

    public func save(_ rooms: [StoredRoom]) throws(RoomStoreError) {
        try contents.withLock { (c) throws(RoomStoreError) in
            guard !c.closed else { throw RoomStoreError("the store is closed") }
            c.batches.append(rooms)
            for room in rooms { c.rooms[room.name] = room }
        }
    }

    public func remove(_ names: [String]) throws(RoomStoreError) {
        try contents.withLock { (c) throws(RoomStoreError) in
            guard !c.closed else { throw RoomStoreError("the store is closed") }
            for name in names { c.rooms[name] = nil }
        }
    }

    public func close() { contents.withLock { $0.closed = true } }
}
