import CSQLite

/// A SQLite result code and message (`sqlite3_errmsg`).
struct SQLiteFailure: Error {
    var code: Int32
    var message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    init(_ db: OpaquePointer, _ code: Int32) {
        self.init(code: code, message: String(cString: sqlite3_errmsg(db)))
    }
}

/// One prepared statement, reset before each run.
final class Statement {
    private(set) var pointer: OpaquePointer?
    private let db: OpaquePointer

    enum Value {
        case text(String)
        case real(Double)
        case integer(Int64)
    }

    init(_ db: OpaquePointer, _ sql: String) throws(SQLiteFailure) {
        self.db = db
        let rc = sqlite3_prepare_v2(db, sql, -1, &pointer, nil)
        guard rc == SQLITE_OK, pointer != nil else {
            let failure = SQLiteFailure(db, rc)
            sqlite3_finalize(pointer)
            throw failure
        }
    }

    deinit { finalize() }

    func finalize() {
        sqlite3_finalize(pointer)
        pointer = nil
    }

    /// Binds `values` to ?1, ?2, … and steps to the end.
    func run(_ values: Value...) throws(SQLiteFailure) {
        _ = try rows(values) { _ in () }
    }

    /// Each result row, read by `read` (columns by index).
    func rows<T>(_ values: [Value] = [], _ read: (Row) -> T) throws(SQLiteFailure) -> [T] {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
        for (i, value) in values.enumerated() {
            let rc =
                switch value {
                case .text(let s): sqlite3_bind_text(pointer, Int32(i + 1), s, -1, rs_sqlite_transient())
                case .real(let d): sqlite3_bind_double(pointer, Int32(i + 1), d)
                case .integer(let n): sqlite3_bind_int64(pointer, Int32(i + 1), n)
                }
            guard rc == SQLITE_OK else { throw SQLiteFailure(db, rc) }
        }
        var out: [T] = []
        while true {
            let rc = sqlite3_step(pointer)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                let failure = SQLiteFailure(db, rc)
                sqlite3_reset(pointer)
                throw failure
            }
            out.append(read(Row(pointer: pointer)))
        }
        sqlite3_reset(pointer)
        return out
    }

    struct Row {
        let pointer: OpaquePointer?
        /// Column i as text (empty when NULL); bytes that are not UTF-8 are replaced, never trusted.
        func text(_ i: Int32) -> String {
            guard let bytes = sqlite3_column_text(pointer, i) else { return "" }
            return String(
                decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(pointer, i))), as: UTF8.self
            )
        }

        func int(_ i: Int32) -> Int32 { sqlite3_column_int(pointer, i) }
    }
}
