import Logging
import ScrollCore

#if canImport(Glibc)
    import Glibc
#endif

/// `--record DIR`: each room's accepted input is appended to `DIR/<room>.jsonl` as it
/// arrives (docs/TRACES.md). Every line is one unbuffered write(2), so a crash loses
/// at most the line being written. A file from an earlier run is never appended to (its
/// timeline and client names would clash): this run then writes `<room>-2.jsonl`, … .
/// Room names are validated ([A-Za-z0-9_-]), so they are safe file names.
///
/// A descriptor is held only while a room records: a file with no line for `quietAfter` is
/// closed (`closeQuiet`, from the switchboard's 1 s sweep), and so is an evicted room's. The room's next line reopens the file
/// this run made and appends to it, after checking it is still that file as it was closed (device,
/// inode, size and change time: a file put in its place, or written by another, is not). An
/// evicted room that is made again has a new timeline and seed, so it starts a new file, as a new
/// run does.
final class TraceDirectory {
    /// Seconds without a recorded line after which a room's file is closed.
    static let quietAfter = 30.0

    private struct Trace {
        let file: String
        /// nil while the file is closed (quiet).
        var fd: Int32?
        /// The file as it was closed, to know it again.
        var closed: stat?
        var recorder = TraceRecorder()
        /// When the last line was written (monotonic seconds).
        var lastLine: Double
    }

    let path: String
    private let logger: Logger
    private var traces: [String: Trace] = [:]
    private var failed: Set<String> = []
    /// Each room's scene and dice seed, written as the file's first lines (`# scene: NAME`,
    /// `# seed: N`) so that widget-replay replays against the same scene drawing the same numbers.
    private var scenes: [String: (name: String, seed: UInt64)] = [:]

    init(path: String, logger: Logger) throws {
        self.path = path
        self.logger = logger
        var st = stat()
        if stat(path, &st) != 0 {
            guard mkdir(path, 0o755) == 0 else {
                throw ServerStartError(
                    description: "cannot create --record directory \(path): \(String(cString: strerror(errno)))")
            }
        } else if st.st_mode & S_IFMT != S_IFDIR {
            throw ServerStartError(description: "--record \(path) is not a directory")
        }
    }

    deinit { for case let fd? in traces.values.map(\.fd) { close(fd) } }

    /// Files open now.
    var openFiles: Int { traces.values.count { $0.fd != nil } }

    /// Called when a room is created, before anything of it is recorded.
    func created(room: String, scene: String, seed: UInt64) {
        scenes[room] = (scene, seed)
    }

    /// The room went out of memory: its recording ends (a room made again records to a new file).
    func evicted(_ room: String) {
        if let fd = traces.removeValue(forKey: room)?.fd { close(fd) }
        failed.remove(room)
        scenes[room] = nil
    }

    /// Closes every file with no line since `now - quietAfter`.
    func closeQuiet(now: Double) {
        for (room, trace) in traces where trace.fd != nil && now >= trace.lastLine + Self.quietAfter {
            var st = stat()
            traces[room]!.closed = fstat(trace.fd!, &st) == 0 ? st : nil
            close(trace.fd!)
            traces[room]!.fd = nil
        }
    }

    func record(_ message: ClientMessage, client: String, room: String, roomTime: Double, now: Double) {
        update(room, now: now) { $0.record(message, client: client, roomTime: roomTime) }
    }

    func leave(client: String, room: String, roomTime: Double, now: Double) {
        update(room, now: now) { $0.leave(client: client, roomTime: roomTime) }
    }

    private func update(_ room: String, now: Double, _ body: (inout TraceRecorder) -> [TraceEntry]) {
        guard !failed.contains(room), var trace = traces[room] ?? create(room, now: now) else { return }
        let entries = body(&trace.recorder)
        traces[room] = trace
        guard !entries.isEmpty, let fd = trace.fd ?? reopen(room) else { return }
        for entry in entries {
            guard write(fd, entry.jsonLine + "\n", room: room) else { return }
        }
        traces[room]?.lastLine = now
    }

    private func write(_ fd: Int32, _ text: String, room: String) -> Bool {
        let line = Array(text.utf8)
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written != line.count { fail(room, "write failed: \(String(cString: strerror(errno)))") }
        return written == line.count
    }

    /// A new file for `room`, never one that exists (an earlier run's, or this room's earlier life).
    private func create(_ room: String, now: Double) -> Trace? {
        for n in 1...1000 {
            let file = "\(path)/\(room)\(n == 1 ? "" : "-\(n)").jsonl"
            let fd = Glibc.open(file, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                logger.info("recording", metadata: ["room": "\(room)", "file": "\(file)"])
                let trace = Trace(file: file, fd: fd, lastLine: now)
                traces[room] = trace
                let scene = scenes[room] ?? (SceneCatalog.defaultName, 0)
                guard write(fd, "# scene: \(scene.name)\n# seed: \(scene.seed)\n", room: room) else { return nil }
                return trace
            }
            if errno != EEXIST { break }
        }
        fail(room, "cannot create a trace file: \(String(cString: strerror(errno)))")
        return nil
    }

    /// The file this run made for `room`, opened again to append; nil (recording stopped) when it
    /// is gone or another file has taken its name.
    private func reopen(_ room: String) -> Int32? {
        guard let trace = traces[room] else { return nil }
        let fd = Glibc.open(trace.file, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else {
            fail(room, "cannot reopen \(trace.file): \(String(cString: strerror(errno)))")
            return nil
        }
        var st = stat()
        guard fstat(fd, &st) == 0, let was = trace.closed, st.st_dev == was.st_dev, st.st_ino == was.st_ino,
            st.st_size == was.st_size, st.st_ctim.tv_sec == was.st_ctim.tv_sec,
            st.st_ctim.tv_nsec == was.st_ctim.tv_nsec
        else {
            close(fd)
            fail(room, "\(trace.file) was replaced or changed by another program")
            return nil
        }
        traces[room]!.fd = fd
        return fd
    }

    /// Recording problems never affect the room; they are logged once per room.
    private func fail(_ room: String, _ why: String) {
        if let fd = traces[room]?.fd { close(fd) }
        traces[room]?.fd = nil
        guard failed.insert(room).inserted else { return }
        logger.error("trace recording stopped", metadata: ["room": "\(room)", "reason": "\(why)"])
    }
}
