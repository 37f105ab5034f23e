import CSQLite
import Logging

#if canImport(Glibc)
    import Glibc
#endif

extension SQLiteRoomStore {
    /// The store at `path` for a server. A file there that is no usable store (garbage, a
    /// directory, no permission, a schema from a newer version) is logged and set aside as
    /// `PATH.corrupt-<unix time>` (with its -wal and -shm), and a fresh store is made. When none
    /// can be made (no such directory, …) it logs why and returns nil: the server then runs
    /// without storage. Fatal only when the file or its directory cannot be written: the server
    /// would run and lose every change, so it refuses to start, naming the file and the fix.
    public static func openForServer(path: String, logger: Logger) throws(ServerStartError) -> SQLiteRoomStore? {
        try openForServer(path: path, logger: logger, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    }

    /// `flags`: how SQLite opens the file (a test opens it read-only).
    static func openForServer(path: String, logger: Logger, flags: Int32) throws(ServerStartError) -> SQLiteRoomStore? {
        do {
            return try SQLiteRoomStore(opening: path, flags: flags)
        } catch {
            if error.readOnly { throw readOnly(path, error.reason) }
            guard error.unusable, exists(path) else {
                logger.error(
                    "cannot open the state file; running without stored state",
                    metadata: ["path": "\(path)", "reason": "\(error.reason)"])
                return nil
            }
            guard let aside = setAside(path, time: Int(WallClock.now())) else {
                logger.error(
                    "the state file is unusable and cannot be moved aside; running without stored state",
                    metadata: ["path": "\(path)", "reason": "\(error.reason)", "rename": "\(errnoText())"])
                return nil
            }
            logger.error(
                "the state file is unusable: set aside, starting with an empty store",
                metadata: ["path": "\(path)", "reason": "\(error.reason)", "moved to": "\(aside)"])
        }
        do {
            return try SQLiteRoomStore(opening: path, flags: flags)
        } catch {
            if error.readOnly { throw readOnly(path, error.reason) }
            logger.error(
                "cannot create the state file; running without stored state",
                metadata: ["path": "\(path)", "reason": "\(error.reason)"])
            return nil
        }
    }

    private static func readOnly(_ path: String, _ reason: String) -> ServerStartError {
        ServerStartError(
            description:
                "the state file \(path) cannot be written: \(reason). Make it and its directory writable, or run with --state none to keep no state"
        )
    }

    /// Renames `path` (and its -wal and -shm, which belong to it) to an unused
    /// `PATH.corrupt-<time>[-n]`; returns that name, or nil when the rename failed.
    static func setAside(_ path: String, time: Int) -> String? {
        var target = "\(path).corrupt-\(time)", n = 1
        while exists(target) && n < 1000 {
            n += 1
            target = "\(path).corrupt-\(time)-\(n)"
        }
        guard rename(path, target) == 0 else { return nil }
        for suffix in ["-wal", "-shm"] where exists(path + suffix) { rename(path + suffix, target + suffix) }
        return target
    }

    private static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
