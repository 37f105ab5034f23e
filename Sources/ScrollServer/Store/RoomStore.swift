/// One room as a store keeps it (docs/STATE.md).
public struct StoredRoom: Sendable, Equatable {
    public var name: String
    /// The catalog name of its scene.
    public var scene: String
    /// Its settled state: `SceneSnapshot.text`.
    public var snapshot: String
    /// When it was saved (Unix time, s).
    public var updated: Double
    /// How many connections have joined it over its life: 1 is a throwaway room (used once,
    /// never shared), which the store forgets before rooms with history.
    public var visits: Int

    public init(name: String, scene: String, snapshot: String, updated: Double, visits: Int = 1) {
        self.name = name; self.scene = scene; self.snapshot = snapshot; self.updated = updated
        self.visits = visits
    }
}

/// Where rooms' settled state outlives the process. `SQLiteRoomStore` keeps it in a file on
/// this machine; when rooms spread over several machines (DESIGN.md), a store they share takes
/// its place. The server calls it from one thread at a time.
public protocol RoomStore: AnyObject, Sendable {
    /// Every stored room, most recently saved first.
    func loadAll() throws(RoomStoreError) -> [StoredRoom]
    /// Saves the batch, all or nothing; a room already stored is replaced.
    func save(_ rooms: [StoredRoom]) throws(RoomStoreError)
    /// Forgets these rooms (names not stored are ignored).
    func remove(_ names: [String]) throws(RoomStoreError)
    /// Releases the store; nothing is written after this.
    func close()
}

public struct RoomStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
