import ScrollCore

#if canImport(Glibc)
import Glibc
#endif

/// `--record DIR`: each room's accepted input is appended to `DIR/<room>.jsonl` as it
/// arrives (docs/TRACES.md). Every line is one unbuffered write(2), so a crash loses
/// at most the line being written. Room names are validated ([A-Za-z0-9_-]), so they
/// are safe file names.
final class TraceDirectory {
    let path: String
    private var files: [String: (fd: Int32, recorder: TraceRecorder)] = [:]
    private(set) var failures = 0

    init(path: String) throws {
        self.path = path
        var st = stat()
        if stat(path, &st) != 0 {
            guard mkdir(path, 0o755) == 0 else {
                throw ServerStartError(description: "cannot create --record directory \(path): \(String(cString: strerror(errno)))")
            }
        } else if st.st_mode & S_IFMT != S_IFDIR {
            throw ServerStartError(description: "--record \(path) is not a directory")
        }
    }

    deinit { for f in files.values { close(f.fd) } }

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
        for entry in entries {
            let line = Array((entry.jsonLine + "\n").utf8)
            let written = line.withUnsafeBytes { Glibc.write(file.fd, $0.baseAddress, $0.count) }
            if written != line.count { failures += 1 }
        }
    }

    private func open(_ room: String) -> (fd: Int32, recorder: TraceRecorder)? {
        if let f = files[room] { return f }
        let fd = Glibc.open("\(path)/\(room).jsonl", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            failures += 1
            return nil
        }
        let f = (fd: fd, recorder: TraceRecorder())
        files[room] = f
        return f
    }
}
