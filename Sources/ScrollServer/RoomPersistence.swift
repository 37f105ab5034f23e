/// The server's side of stored room state (docs/STATE.md): the writer, and the rooms the store
/// holds that are not in memory ("dormant": evicted, or beyond `maxRooms` at start), restored
/// when someone joins them. Service thread only.
final class RoomPersistence {
    let writer: StateWriter
    private(set) var dormant: [String: StoredRoom] = [:]
    /// Most rooms kept, in memory and dormant: beyond it the dormant room saved longest ago is
    /// forgotten (removed from the store).
    let maxStored: Int

    init(writer: StateWriter, maxStored: Int) {
        self.writer = writer
        self.maxStored = maxStored
    }

    /// Takes a dormant room out to restore it.
    func wake(_ name: String) -> StoredRoom? { dormant.removeValue(forKey: name) }

    /// Keeps `room` dormant; returns the rooms forgotten to stay within `maxStored` with `live`
    /// rooms in memory (already removed from the store).
    @discardableResult
    func keep(_ room: StoredRoom, live: Int) -> [String] {
        dormant[room.name] = room
        var forgotten: [String] = []
        while live + dormant.count > maxStored, let oldest = dormant.values.min(by: { $0.updated < $1.updated }) {
            dormant[oldest.name] = nil
            writer.remove(oldest.name)
            forgotten.append(oldest.name)
        }
        return forgotten
    }
}
