import CSQLite
import Foundation

/// A `--state` file in a directory of its own (removed with it), read through SQLite by the
/// test itself: what the server has written, whatever the server believes.
final class StateFile {
    let directory: URL
    var path: String { directory.appendingPathComponent("state.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var entries: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// The snapshot stored for `room` (docs/STATE.md), parsed; nil when there is none (or no file).
    func snapshot(room: String, file: String = "state.sqlite") -> [String: Any]? {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(directory.appendingPathComponent(file).path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK
        else { return nil }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, "SELECT snapshot FROM rooms WHERE name = ?1", -1, &statement, nil) == SQLITE_OK,
            sqlite3_bind_text(statement, 1, room, -1, rs_sqlite_transient()) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
        else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(String(cString: text).utf8)) as? [String: Any]
    }

    /// Writes a row as a server would (for rows a server would never write).
    func insert(room: String, scene: String, snapshot: String) throws {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
            sqlite3_prepare_v2(
                db, "INSERT INTO rooms (name, scene, snapshot, updated) VALUES (?1, ?2, ?3, 0)", -1, &statement, nil)
                == SQLITE_OK
        else { throw WireError("cannot write to \(path)") }
        for (i, text) in [room, scene, snapshot].enumerated() {
            sqlite3_bind_text(statement, Int32(i + 1), text, -1, rs_sqlite_transient())
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw WireError("cannot insert room \(room)") }
    }

    /// The names of the rooms stored.
    var rooms: [String] {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
            sqlite3_prepare_v2(db, "SELECT name FROM rooms ORDER BY name", -1, &statement, nil) == SQLITE_OK
        else { return [] }
        var names: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            names.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        return names
    }

    /// Waits until the stored state of `room` satisfies `done` (widget id → its state).
    func waitForSnapshot(
        room: String, timeout: Double = 5, _ done: ([String: [String: Any]]) -> Bool
    ) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let widgets = snapshot(room: room)?["widgets"] as? [String: [String: Any]], done(widgets) { return }
            usleep(10_000)
        }
        throw WireError("the state file did not hold the expected state of room \(room) within \(timeout) s")
    }
}
