import Foundation

/// libwebsockets' own broadcaster as a peer to measure against: Debian's
/// `libwebsockets-test-server` (package libwebsockets-test-server, the same lws as ours) on a free
/// loopback port. Its `lws-mirror-protocol` sends every message a client sends to every client of
/// the same mirror instance (`?mirror=NAME` in the URL) through lws's ring buffer: no application
/// work. Plain ws (no `--ssl`), bound to `lo` (`-i lo`: ::ffff:127.0.0.1 only).
///
/// It prints nothing once it listens, so it is ready when its port accepts a connection. Its log
/// (notices: "Created new mi … 'NAME'" once per mirror instance, "dropping!" for each message its
/// full ring drops) is collected in `output`.
public final class MirrorServer {
    public static let subprotocol = "lws-mirror-protocol"
    public static let startupTimeout = 10.0

    public let port: Int
    private let child: ChildProcess

    /// The WebSocket path of mirror instance `name`.
    public static func path(instance name: String) -> String { "/?mirror=\(name)" }

    /// - Parameter launcher: A command that execs it, keeping the pid (`CPUAffinity.launcher`).
    public init(launcher: [String] = []) throws {
        let binary = try Self.binaryPath()
        var attempt = 1
        while true {
            let port = try LoopbackPort.free()
            // -d 7: errors, warnings and notices (lws's default).
            let command = launcher + [binary, "-p", String(port), "-i", "lo", "-d", "7"]
            let child = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()))
            let deadline = Date().addingTimeInterval(Self.startupTimeout)
            while !child.hasExited, Date() < deadline, !LoopbackPort.accepts(port) {
                child.waitForExit(timeout: 0.02)
            }
            if !child.hasExited, LoopbackPort.accepts(port) {
                (self.port, self.child) = (port, child)
                return
            }
            let exited = child.hasExited
            child.stop()
            // Another process took the port between picking and binding: pick again.
            if exited, attempt < 3 {
                attempt += 1
                continue
            }
            throw LaunchError.serverDidNotStart(
                reason: exited
                    ? "libwebsockets-test-server exited (\(child.exit.map(String.init(describing:)) ?? "?"))"
                    : "not accepting on port \(port) within \(Self.startupTimeout)s",
                output: child.output.text)
        }
    }

    deinit { stop() }

    /// SIGTERM (it has no handler for it: it ends at once), SIGKILL after 5 s; then the rest of its
    /// log is read (up to 2 s), so what it logged is all in `output`. Safe to repeat.
    public func stop() {
        child.stop()
        _ = child.output.waitForLine(timeout: 2) { _ in false }
    }

    public var pid: pid_t { child.pid }
    public var hasExited: Bool { child.hasExited }
    /// Its log so far (stderr; stdout is buffered until it exits).
    public var output: String { child.output.text }

    /// The names of the mirror instances it created so far, in order (from its notices).
    public var instancesCreated: [String] {
        child.output.allLines.compactMap { line in
            guard line.contains("Created new mi"), let close = line.lastIndex(of: "'"),
                let open = line[..<close].lastIndex(of: "'")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    /// Messages it dropped so far because its ring (32 messages) was full: a "dropping!" notice each.
    public var messagesDropped: Int { child.output.allLines.filter { $0.contains("dropping!") }.count }

    /// `$LWS_TEST_SERVER_BIN`, else /usr/bin/libwebsockets-test-server.
    public static func binaryPath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["LWS_TEST_SERVER_BIN"], !path.isEmpty { return path }
        let path = "/usr/bin/libwebsockets-test-server"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw LaunchError.launchFailed(
                executable: "libwebsockets-test-server",
                reason: "not installed (Debian: libwebsockets-test-server; `make deps-test` installs it)")
        }
        return path
    }
}
