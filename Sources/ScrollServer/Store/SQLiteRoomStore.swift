import CSQLite
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Rooms' settled state in one SQLite file (docs/STATE.md): WAL mode, one table keyed by room
/// name, prepared statements, one transaction per batch.
public final class SQLiteRoomStore: RoomStore, @unchecked Sendable {
    /// `PRAGMA user_version` of `schema`; a file with a higher one comes from a newer server.
    public static let schemaVersion: Int32 = 2
    static let schema = """
        CREATE TABLE rooms (
            name TEXT PRIMARY KEY NOT NULL,
            scene TEXT NOT NULL,
            snapshot TEXT NOT NULL,
            updated REAL NOT NULL,
            visits INTEGER NOT NULL DEFAULT 1
        ) WITHOUT ROWID
        """
    /// From each older schema version to the next: version 1 had no visits (each room counts one).
    static let migrations: [Int32: String] = [1: "ALTER TABLE rooms ADD COLUMN visits INTEGER NOT NULL DEFAULT 1"]

    public let path: String
    /// The connection and its statements, used by one caller at a time; nil once closed.
    private let connection: Mutex<Connection?>

    /// Opens the store at `path`, creating it if missing.
    public convenience init(path: String) throws(RoomStoreError) {
        do { try self.init(opening: path) } catch { throw RoomStoreError(error.reason) }
    }

    /// As `init(path:)`; the failure says whether the file itself is unusable (set it aside) or
    /// cannot be written. `flags`: how SQLite opens it (a test opens it read-only).
    init(opening path: String, flags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) throws(OpenFailure) {
        self.path = path
        connection = Mutex(try Connection(path: path, flags: flags))
    }

    deinit { close() }

    public func loadAll() throws(RoomStoreError) -> [StoredRoom] {
        try use { (c) throws(SQLiteFailure) in
            try c.all.rows { s in
                StoredRoom(
                    name: s.text(0), scene: s.text(1), snapshot: s.text(2),
                    updated: sqlite3_column_double(s.pointer, 3),
                    visits: Int(s.int(4)))
            }
        }
    }

    public func save(_ rooms: [StoredRoom]) throws(RoomStoreError) {
        try use { (c) throws(SQLiteFailure) in
            try c.transaction { () throws(SQLiteFailure) in
                for room in rooms {
                    try c.upsert.run(
                        .text(room.name), .text(room.scene), .text(room.snapshot), .real(room.updated),
                        .integer(Int64(room.visits)))
                }
            }
        }
    }

    public func remove(_ names: [String]) throws(RoomStoreError) {
        try use { (c) throws(SQLiteFailure) in
            try c.transaction { () throws(SQLiteFailure) in
                for name in names { try c.delete.run(.text(name)) }
            }
        }
    }

    public func close() { connection.withLock { $0 = nil } }

    private func use<T>(_ body: (Connection) throws(SQLiteFailure) -> T) throws(RoomStoreError) -> T {
        try connection.withLock { (c) throws(RoomStoreError) -> T in
            guard let c else { throw RoomStoreError("the store is closed") }
            do throws(SQLiteFailure) { return try body(c) } catch { throw RoomStoreError("\(path): \(error.message)") }
        }
    }

    /// Why opening failed; `unusable`: the file is there but is no store this server can use;
    /// `readOnly`: it, or its directory, cannot be written (every save would fail).
    struct OpenFailure: Error {
        var reason: String
        var unusable: Bool
        var readOnly = false
    }
}

/// An open database with the store's statements (finalized, then closed, when released). Used
/// only inside the store's lock, hence unchecked.
private final class Connection: @unchecked Sendable {
    let db: OpaquePointer
    let upsert: Statement, delete: Statement, all: Statement
    let begin: Statement, commit: Statement, rollback: Statement

    /// Codes that mean the file is not a database this server can use, rather than out of reach.
    static let unusableCodes = [SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_FORMAT, SQLITE_PERM]

    typealias Failure = SQLiteRoomStore.OpenFailure

    init(path: String, flags: Int32) throws(Failure) {
        try Self.checkDirectory(of: path)
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            throw Failure(reason: message, unusable: Self.unusableCodes.contains(rc & 0xFF))
        }
        do throws(Failure) {
            // SQLite opens a file it may not write read-only, without a word; every save would fail.
            guard sqlite3_db_readonly(handle, "main") != 1 else {
                throw Failure(reason: "the file is read-only", unusable: false, readOnly: true)
            }
            try Self.prepareFile(handle)
            func statement(_ sql: String) throws(Failure) -> Statement {
                do { return try Statement(handle, sql) } catch {
                    throw Failure(reason: "the rooms table does not match: \(error.message)", unusable: true)
                }
            }
            upsert = try statement(
                "INSERT OR REPLACE INTO rooms (name, scene, snapshot, updated, visits) VALUES (?1, ?2, ?3, ?4, ?5)")
            delete = try statement("DELETE FROM rooms WHERE name = ?1")
            all = try statement("SELECT name, scene, snapshot, updated, visits FROM rooms ORDER BY updated DESC")
            begin = try statement("BEGIN IMMEDIATE")
            commit = try statement("COMMIT")
            rollback = try statement("ROLLBACK")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        db = handle
    }

    /// WAL mode, an integrity check, and the schema: created in an empty file, refused when it
    /// is newer than this server's or the file holds something else.
    private static func prepareFile(_ db: OpaquePointer) throws(Failure) {
        func rows<T>(_ sql: String, _ read: (Statement.Row) -> T) throws(Failure) -> [T] {
            do throws(SQLiteFailure) { return try Statement(db, sql).rows([], read) } catch {
                throw Failure(
                    reason: error.message, unusable: unusableCodes.contains(error.code & 0xFF),
                    readOnly: error.code & 0xFF == SQLITE_READONLY)
            }
        }
        // Another process writing the file (a second server on it) is waited for, briefly.
        sqlite3_busy_timeout(db, 2000)
        let mode = try rows("PRAGMA journal_mode=WAL") { $0.text(0) }.first
        guard mode == "wal" else { throw Failure(reason: "WAL mode was refused (\(mode ?? "?"))", unusable: false) }
        _ = try rows("PRAGMA synchronous=NORMAL") { _ in () }
        let check = try rows("PRAGMA quick_check") { $0.text(0) }
        guard check == ["ok"] else {
            throw Failure(reason: "integrity check failed: \(check.prefix(3).joined(separator: "; "))", unusable: true)
        }
        let version = try rows("PRAGMA user_version") { $0.int(0) }.first ?? 0
        guard version <= SQLiteRoomStore.schemaVersion else {
            throw Failure(
                reason: "schema version \(version) is newer than this server's (\(SQLiteRoomStore.schemaVersion))",
                unusable: true)
        }
        if version > 0 {
            for step in version..<SQLiteRoomStore.schemaVersion {
                guard let sql = SQLiteRoomStore.migrations[step] else { continue }
                _ = try rows("BEGIN IMMEDIATE") { _ in () }
                _ = try rows(sql) { _ in () }
                _ = try rows("PRAGMA user_version = \(step + 1)") { _ in () }
                _ = try rows("COMMIT") { _ in () }
            }
            // A write at open (the version as it is), so that what the checks before cannot see, a
            // -wal or -shm that cannot be written, is found now and not at the first save.
            let current = try rows("PRAGMA user_version") { $0.int(0) }.first ?? version
            _ = try rows("BEGIN IMMEDIATE") { _ in () }
            _ = try rows("PRAGMA user_version = \(current)") { _ in () }
            _ = try rows("COMMIT") { _ in () }
            return
        }
        guard try rows("SELECT count(*) FROM sqlite_master", { $0.int(0) }).first == 0 else {
            throw Failure(reason: "not a widget-server state file (it holds other tables)", unusable: true)
        }
        _ = try rows("BEGIN IMMEDIATE") { _ in () }
        _ = try rows(SQLiteRoomStore.schema) { _ in () }
        _ = try rows("PRAGMA user_version = \(SQLiteRoomStore.schemaVersion)") { _ in () }
        _ = try rows("COMMIT") { _ in () }
    }

    /// A directory that exists but cannot be written: SQLite could not make the -wal and -shm
    /// files beside the state file (a missing one is for `sqlite3_open_v2` to report).
    private static func checkDirectory(of path: String) throws(Failure) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        guard access(directory, W_OK) != 0 else { return }
        let code = errno
        guard code != ENOENT, code != ENOTDIR else { return }
        throw Failure(
            reason:
                "its directory \(directory) cannot be written (\(String(cString: strerror(code)))): SQLite keeps the -wal and -shm files there",
            unusable: false, readOnly: true)
    }

    deinit {
        // Statements first: a connection with statements left open cannot close.
        for statement in [upsert, delete, all, begin, commit, rollback] { statement.finalize() }
        sqlite3_close_v2(db)
    }

    /// `body` in one transaction: committed if it returns, rolled back if it throws.
    func transaction(_ body: () throws(SQLiteFailure) -> Void) throws(SQLiteFailure) {
        try begin.run()
        do {
            try body()
            try commit.run()
        } catch {
            _ = try? rollback.run()
            throw error
        }
    }
}
