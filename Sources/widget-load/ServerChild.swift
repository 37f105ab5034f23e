import Foundation

/// A `widget-server` started for one run on a free loopback port, stopped after it (so every
/// run has a fresh server whose memory and CPU are the run's alone).
final class ServerChild {
    let process = Process()
    let port: Int
    var pid: Int32 { process.processIdentifier }

    struct StartError: Error, CustomStringConvertible { let description: String }

    init(executable: String, maxClients: Int, maxRooms: Int, publicDirectory: String?) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--host", "127.0.0.1", "--port", "0", "--max-clients", "\(maxClients)",
                "--max-rooms", "\(maxRooms)", "--log-level", "warning", "--state", "none",
            ] + (publicDirectory.map { ["--public", $0] } ?? [])
        let stdout = Pipe()
        process.standardOutput = stdout
        do { try process.run() } catch { throw StartError(description: "could not start \(executable): \(error)") }
        // The server prints "listening on http://127.0.0.1:PORT/" once it accepts connections.
        let line = Self.firstLine(of: stdout.fileHandleForReading.fileDescriptor, timeout: 10)
        let prefix = "listening on http://127.0.0.1:"
        guard let line, let start = line.range(of: prefix)?.upperBound,
            let port = Int(line[start...].prefix(while: \.isNumber))
        else {
            process.terminate()
            throw StartError(description: "\(executable) printed no listening line within 10 s")
        }
        self.port = port
    }

    deinit { stop() }

    /// SIGTERM, then SIGKILL if it has not exited within 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// The server beside this executable (both are built into the same directory).
    static var besideThisExecutable: String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("widget-server").path
    }

    private static func firstLine(of fd: Int32, timeout: Double) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !bytes.contains(UInt8(ascii: "\n")) {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&pfd, 1, left) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { return nil }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
