import Foundation

/// The real `widget-server` binary, started on an ephemeral loopback port (or a given one).
///
/// The binary is `$WIDGET_SERVER_BIN` if set, else the `widget-server` built beside the tests
/// (`PackagePaths.products`: `.build/debug`, or a sanitizer build's own).
/// The server's contract is that it prints `listening on http://127.0.0.1:PORT/` once it
/// accepts connections; that line is how the port is learned.
final class ServerProcess {
    static let startupTimeout = 10.0

    let port: Int
    private let child: ChildProcess

    var httpURL: String { "http://127.0.0.1:\(port)/" }
    var wsURL: String { "ws://127.0.0.1:\(port)/" }
    /// Everything the server printed so far, stdout and stderr interleaved.
    var output: String { child.output.text }

    /// Whether a line of output (already written or yet to come) satisfies `predicate` within
    /// `timeout`. The log (stderr) and stdout come through separate pipes, so a line logged
    /// before `listening on` may be read after it: a test waits for it rather than reading
    /// `output` at once.
    func hasLine(timeout: Double = 5, where predicate: (String) -> Bool) -> Bool {
        child.output.waitForLine(timeout: timeout, where: predicate) != nil
    }

    /// - Parameters:
    ///   - port: The port to listen on; 0 (the default) lets the system pick a free one. A
    ///     restart test passes the port of a server it stopped, to come back where the page is.
    ///   - arguments: Passed after `--host 127.0.0.1 --port PORT`.
    ///   - isolatedState: Unless `arguments` name a `--state`, `--state none` follows them, so
    ///     parallel tests never share a state file; false leaves the server's default.
    ///   - executable: A stand-in for the server binary (the harness's own tests use one).
    ///   - workingDirectory: Where it runs (default: this process's).
    init(
        port: Int = 0, arguments: [String] = [], isolatedState: Bool = true, executable: String? = nil,
        workingDirectory: String? = nil
    ) throws {
        let binary = executable ?? Self.binaryPath()
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HarnessError.serverBinaryMissing(path: binary)
        }
        child = try ChildProcess(
            executable: binary,
            arguments: ["--host", "127.0.0.1", "--port", String(port)] + arguments
                + (isolatedState && !arguments.contains("--state") ? ["--state", "none"] : []),
            workingDirectory: workingDirectory)
        let prefix = "listening on http://127.0.0.1:"
        let line = child.output.waitForLine(timeout: Self.startupTimeout) { $0.contains(prefix) }
        guard let line, let start = line.range(of: prefix)?.upperBound,
            let port = Int(line[start...].prefix(while: \.isNumber)), port > 0
        else {
            // Only reached when startup failed; a loaded machine may take a while to reap.
            let reason =
                child.waitForExit(timeout: 5)
                ? "it exited before printing its listening line"
                : "no listening line within \(Self.startupTimeout)s"
            child.stop()
            throw HarnessError.serverDidNotStart(reason: reason, output: child.output.text)
        }
        self.port = port
    }

    deinit { stop() }

    /// SIGTERM, wait for exit, SIGKILL after a grace period. Safe to call repeatedly.
    func stop() {
        child.stop()
    }

    /// SIGKILL, and wait for it to be gone: no shutdown of any kind runs.
    func kill() {
        child.send(signal: SIGKILL)
        child.waitForExit(timeout: 5)
    }

    /// Its process id (for tools that read its CPU time and memory).
    var pid: pid_t { child.pid }

    /// True once the server process has exited.
    var hasExited: Bool { child.hasExited }

    /// Sends `signal` (SIGTERM, SIGINT, SIGKILL…) and returns at once.
    func send(signal: Int32) { child.send(signal: signal) }

    /// Waits up to `timeout` s for the server to exit; true if it has.
    func waitForExit(timeout: Double) -> Bool { child.waitForExit(timeout: timeout) }

    /// How the server ended; nil while it runs.
    var exit: ChildProcess.Exit? { child.exit }

    /// The server's resident set size (`VmRSS` in /proc/PID/status), in KiB; nil once it is gone.
    func residentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.dropFirst("VmRSS:".count).split(whereSeparator: \.isWhitespace).first ?? "")
    }

    static func binaryPath() -> String {
        if let path = ProcessInfo.processInfo.environment["WIDGET_SERVER_BIN"], !path.isEmpty { return path }
        return PackagePaths.product("widget-server")
    }
}
