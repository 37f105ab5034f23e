import CSQLite
import Foundation
import Testing

@testable import ScrollServer

/// The SQLite room store (docs/STATE.md) on files in a temporary directory,
/// looked at through a connection of the test's own.
@Suite("SQLite room store")
struct SQLiteRoomStoreTests {
    let dir: TemporaryDirectory
    let path: String

    init() throws {
        dir = try TemporaryDirectory()
        path = dir.file("state.sqlite")
    }

    private func room(_ name: String, _ snapshot: String = "{}", scene: String = "demo", at updated: Double)
        -> StoredRoom
    {
        StoredRoom(name: name, scene: scene, snapshot: snapshot, updated: updated)
    }

    @Test("rooms saved come back, the latest first; a room saved again is replaced; removed ones are gone")
    func roundTrip() throws {
        let store = try SQLiteRoomStore(path: path)
        try store.save([room("a", #"{"v":1}"#, at: 100), room("b", #"{"v":2}"#, scene: "ruler", at: 200)])
        try store.save([room("a", #"{"v":3}"#, at: 300)])
        #expect(
            try store.loadAll() == [room("a", #"{"v":3}"#, at: 300), room("b", #"{"v":2}"#, scene: "ruler", at: 200)])
        try store.remove(["a", "never-stored"])
        store.close()
        // A new connection reads what the first one wrote.
        let reopened = try SQLiteRoomStore(path: path)
        #expect(try reopened.loadAll() == [room("b", #"{"v":2}"#, scene: "ruler", at: 200)])
        #expect(
            try RawDatabase(path).query("SELECT name, scene, snapshot FROM rooms") == [["b", "ruler", #"{"v":2}"#]])
    }

    @Test("a closed store refuses to write")
    func closed() throws {
        let store = try SQLiteRoomStore(path: path)
        store.close()
        #expect(throws: RoomStoreError("the store is closed")) { try store.save([room("a", at: 1)]) }
    }

    @Test("the file is in WAL mode, with schema version 2 and one rooms table")
    func walMode() throws {
        let store = try SQLiteRoomStore(path: path)
        try store.save([room("a", at: 1)])
        let raw = try RawDatabase(path)
        #expect(try raw.query("PRAGMA journal_mode") == [["wal"]])
        #expect(try raw.query("PRAGMA user_version") == [["2"]])
        #expect(try raw.query("SELECT type, name FROM sqlite_master") == [["table", "rooms"]])
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "writes go to the write-ahead log")
    }

    @Test("visits are kept; a file of schema 1 (no visits) is brought to 2, each room counting one visit")
    func schemaOneMigrates() throws {
        let raw = try RawDatabase(path)
        try raw.query("PRAGMA journal_mode=WAL")
        try raw.query(
            "CREATE TABLE rooms (name TEXT PRIMARY KEY NOT NULL, scene TEXT NOT NULL, snapshot TEXT NOT NULL, updated REAL NOT NULL) WITHOUT ROWID"
        )
        try raw.query("INSERT INTO rooms VALUES ('old', 'ruler', '{}', 5)")
        try raw.query("PRAGMA user_version = 1")
        let store = try SQLiteRoomStore(path: path)
        #expect(try store.loadAll() == [StoredRoom(name: "old", scene: "ruler", snapshot: "{}", updated: 5, visits: 1)])
        #expect(try RawDatabase(path).query("PRAGMA user_version") == [["2"]])
        try store.save([StoredRoom(name: "shared", scene: "ruler", snapshot: "{}", updated: 6, visits: 7)])
        #expect(try store.loadAll().first?.visits == 7)
    }

    @Test("a batch is one transaction: when one room of it cannot be written, none is")
    func batchIsAllOrNothing() throws {
        let store = try SQLiteRoomStore(path: path)
        try store.save([room("kept", at: 1)])
        try RawDatabase(path).query(
            "CREATE TRIGGER poison BEFORE INSERT ON rooms WHEN NEW.name = 'poison' BEGIN SELECT RAISE(ABORT, 'poisoned'); END"
        )
        #expect(throws: RoomStoreError("\(path): poisoned")) {
            try store.save([room("first", at: 2), room("kept", #"{"changed":1}"#, at: 2), room("poison", at: 2)])
        }
        #expect(try store.loadAll() == [room("kept", at: 1)])
        try store.save([room("after", at: 3)])
        #expect(try store.loadAll().map(\.name) == ["after", "kept"], "the store works on after a failed batch")
    }

    // MARK: files it cannot use

    /// Opens `path` as the server does; returns the store and the log.
    private func openForServer() throws -> (SQLiteRoomStore?, String) {
        let log = CapturedLog()
        let store = try SQLiteRoomStore.openForServer(path: path, logger: log.logger)
        return (store, log.text)
    }

    /// The file set aside next to `path`: `state.sqlite.corrupt-<unix time>`, made within the test.
    private func setAsideFile(since start: Double) throws -> String {
        let aside = dir.entries.filter {
            $0.hasPrefix("state.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
        try #require(aside.count == 1, "entries: \(dir.entries)")
        let time = try #require(Double(aside[0].dropFirst("state.sqlite.corrupt-".count)))
        #expect(time >= start.rounded(.down) && time <= Date().timeIntervalSince1970)
        return dir.file(aside[0])
    }

    private func expectFreshStoreAfterSettingAside(_ reason: String, since start: Double) throws {
        let (store, log) = try openForServer()
        let opened = try #require(store, "a fresh store is made: \(log)")
        #expect(log.contains("error the state file is unusable: set aside, starting with an empty store"), "\(log)")
        #expect(log.contains("reason=\(reason)"), "\(log)")
        let aside = try setAsideFile(since: start)
        #expect(log.contains("moved to=\(aside)"), "\(log)")
        #expect(try opened.loadAll() == [])
        try opened.save([room("a", at: 1)])
        #expect(try RawDatabase(path).query("SELECT name FROM rooms") == [["a"]])
    }

    @Test("garbage bytes: reported, set aside with its bytes intact, and a fresh store is used")
    func garbage() throws {
        let start = Date().timeIntervalSince1970
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectFreshStoreAfterSettingAside("file is not a database", since: start)
        #expect(try Data(contentsOf: URL(fileURLWithPath: setAsideFile(since: start))) == bytes)
    }

    @Test("a directory where the file should be: set aside, a fresh store is used")
    func directory() throws {
        let start = Date().timeIntervalSince1970
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try expectFreshStoreAfterSettingAside("unable to open database file", since: start)
    }

    @Test("a schema from a newer server is not touched: set aside with its WAL, a fresh store is used")
    func futureSchema() throws {
        let start = Date().timeIntervalSince1970
        let raw = try RawDatabase(path)
        try raw.query("PRAGMA journal_mode=WAL")
        try raw.query("CREATE TABLE rooms (name TEXT PRIMARY KEY, scene TEXT, snapshot TEXT, updated REAL, owner TEXT)")
        try raw.query("PRAGMA user_version = 3")
        try expectFreshStoreAfterSettingAside("schema version 3 is newer than this server's (2)", since: start)
        let aside = try setAsideFile(since: start)
        #expect(
            FileManager.default.fileExists(atPath: aside + "-wal"), "its write-ahead log goes with it: \(dir.entries)")
        #expect(try RawDatabase(aside).query("PRAGMA user_version") == [["3"]], "the newer file is kept as it was")
    }

    @Test("another program's database: set aside, a fresh store is used")
    func foreignDatabase() throws {
        let start = Date().timeIntervalSince1970
        try RawDatabase(path).query("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        try expectFreshStoreAfterSettingAside("not a widget-server state file (it holds other tables)", since: start)
    }

    @Test("a stored table of the wrong shape: set aside, a fresh store is used")
    func wrongTable() throws {
        let start = Date().timeIntervalSince1970
        let raw = try RawDatabase(path)
        try raw.query("CREATE TABLE rooms (name TEXT PRIMARY KEY)")
        try raw.query("PRAGMA user_version = 1")
        try expectFreshStoreAfterSettingAside(
            "the rooms table does not match: table rooms has no column named scene", since: start)
    }

    @Test(
        "a file SQLite can only read (its mode, a read-only mount): the start is refused, naming the file and --state none; the file is neither set aside nor changed"
    )
    func readOnly() throws {
        let store = try SQLiteRoomStore(path: path)
        try store.save([room("kept", at: 1)])
        store.close()
        let before = dir.entries
        let log = CapturedLog()
        // As root (the tests' user here) a file's mode stops no write: SQLite is told to open it
        // read-only, as it does by itself when the file cannot be opened for writing.
        #expect {
            try SQLiteRoomStore.openForServer(path: path, logger: log.logger, flags: SQLITE_OPEN_READONLY)
        } throws: { error in
            "\(error)"
                == "the state file \(path) cannot be written: the file is read-only. Make it and its directory writable, or run with --state none to keep no state"
        }
        #expect(dir.entries == before, "nothing set aside or made")
        #expect(try RawDatabase(path).query("SELECT name FROM rooms") == [["kept"]])
        #expect(log.text == "", "refused, not logged and carried on: \(log.text)")
    }

    @Test("a file that cannot be created: reported, and the server runs without storage")
    func cannotCreate() throws {
        let log = CapturedLog()
        let store = try SQLiteRoomStore.openForServer(path: dir.file("missing/state.sqlite"), logger: log.logger)
        #expect(store == nil)
        #expect(log.text.contains("error cannot open the state file; running without stored state"), "\(log.text)")
        #expect(log.text.contains("reason=unable to open database file"), "\(log.text)")
        #expect(dir.entries == [])
    }
}
