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
final class TraceDirectory {
    let path: String
    private let logger: Logger
    private var files: [String: (fd: Int32, recorder: TraceRecorder)] = [:]
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

    deinit { for f in files.values { close(f.fd) } }

    /// Called when a room is created, before anything of it is recorded.
    func created(room: String, scene: String, seed: UInt64) {
        scenes[room] = (scene, seed)
    }

    func record(_ message: ClientMessage, client: String, room: String, roomTime: Double) {
        update(room) { $0.record(message, client: client, roomTime: roomTime) }
    }

    func leave(client: String, room: String, roomTime: Double) {
        update(room) { $0.leave(client: client, roomTime: roomTime) }
    }

    private func update(_ room: String, _ body: (inout TraceRecorder) -> [TraceEntry]) {
        guard var file = open(room) else { return }
        let entries = body(&file.recorder)
        files[room] = file
        for entry in entries { write(file.fd, entry.jsonLine + "\n", room: room) }
    }

    private func write(_ fd: Int32, _ text: String, room: String) {
        let line = Array(text.utf8)
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written != line.count { fail(room, "write failed: \(String(cString: strerror(errno)))") }
    }

    private func open(_ room: String) -> (fd: Int32, recorder: TraceRecorder)? {
        guard !failed.contains(room) else { return nil }
        if let f = files[room] { return f }
        for n in 1...1000 {
            let file = "\(path)/\(room)\(n == 1 ? "" : "-\(n)").jsonl"
            let fd = Glibc.open(file, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                logger.info("recording", metadata: ["room": "\(room)", "file": "\(file)"])
                let f = (fd: fd, recorder: TraceRecorder())
                files[room] = f
                let scene = scenes[room] ?? (SceneCatalog.defaultName, 0)
                write(f.fd, "# scene: \(scene.name)\n# seed: \(scene.seed)\n", room: room)
                return f
            }
            if errno != EEXIST { break }
        }
        fail(room, "cannot create a trace file: \(String(cString: strerror(errno)))")
        return nil
    }

    /// Recording problems never affect the room; they are logged once per room.
    private func fail(_ room: String, _ why: String) {
        guard failed.insert(room).inserted else { return }
        logger.error("trace recording stopped", metadata: ["room": "\(room)", "reason": "\(why)"])
    }
}
