import Foundation

/// The real `widget-server` binary, started on an ephemeral loopback port (or a given one), for
/// the tests and for `widget-load`'s runs.
///
/// The binary is `$WIDGET_SERVER_BIN` if set, else the `widget-server` built beside this process
/// (`Products`: `.build/debug`, or a sanitizer build's own).
/// The server's contract is that it prints `listening on http://127.0.0.1:PORT/` once it
/// accepts connections; that line is how the port is learned.
public final class ServerProcess {
    public static let startupTimeout = 10.0

    public let port: Int
    private let child: ChildProcess

    public var httpURL: String { "http://127.0.0.1:\(port)/" }
    public var wsURL: String { "ws://127.0.0.1:\(port)/" }
    /// Everything the server printed so far, stdout and stderr interleaved.
    public var output: String { child.output.text }

    /// Whether a line of output (already written or yet to come) satisfies `predicate` within
    /// `timeout`. The log (stderr) and stdout come through separate pipes, so a line logged
    /// before `listening on` may be read after it: a test waits for it rather than reading
    /// `output` at once.
    public func hasLine(timeout: Double = 5, where predicate: (String) -> Bool) -> Bool {
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
    ///   - collectsStandardError: false: its log goes to this process's stderr, not `output`.
    ///   - launcher: A command that sets something up and then execs the server, which keeps its
    ///     pid (`prlimit --nofile=N:N --`, `setpriv … --`).
    public init(
        port: Int = 0, arguments: [String] = [], isolatedState: Bool = true, executable: String? = nil,
        workingDirectory: String? = nil, collectsStandardError: Bool = true, launcher: [String] = []
    ) throws {
        let binary = executable ?? Self.binaryPath()
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw LaunchError.serverBinaryMissing(path: binary)
        }
        let command =
            launcher + [binary, "--host", "127.0.0.1", "--port", String(port)] + arguments
            + (isolatedState && !arguments.contains("--state") ? ["--state", "none"] : [])
        child = try ChildProcess(
            executable: command[0], arguments: Array(command.dropFirst()), workingDirectory: workingDirectory,
            collectsStandardError: collectsStandardError)
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
            throw LaunchError.serverDidNotStart(reason: reason, output: child.output.text)
        }
        self.port = port
    }

    deinit { stop() }

    /// SIGTERM, wait for exit, SIGKILL after a grace period. Safe to call repeatedly.
    public func stop() {
        child.stop()
    }

    /// SIGKILL, and wait for it to be gone: no shutdown of any kind runs.
    public func kill() {
        child.send(signal: SIGKILL)
        child.waitForExit(timeout: 5)
    }

    /// Its process id (for tools that read its CPU time and memory).
    public var pid: pid_t { child.pid }

    /// True once the server process has exited.
    public var hasExited: Bool { child.hasExited }

    /// Sends `signal` (SIGTERM, SIGINT, SIGKILL…) and returns at once.
    public func send(signal: Int32) { child.send(signal: signal) }

    /// Waits up to `timeout` s for the server to exit; true if it has.
    public func waitForExit(timeout: Double) -> Bool { child.waitForExit(timeout: timeout) }

    /// How the server ended; nil while it runs.
    public var exit: ChildProcess.Exit? { child.exit }

    /// The server's resident set size (`VmRSS` in /proc/PID/status), in KiB; nil once it is gone.
    public func residentKiB() -> Int? { ProcessUsage.residentKiB(pid: pid) }

    /// Its user + system CPU seconds so far; nil once it is gone.
    public func cpuSeconds() -> Double? { ProcessUsage.cpu(pid: pid) }

    /// Its open descriptors, or only those of files under `directory`; nil once it is gone.
    public func openDescriptors(under directory: String? = nil) -> Int? {
        ProcessUsage.openFiles(pid: pid, under: directory)
    }

    /// `$WIDGET_SERVER_BIN`, else the `widget-server` beside this process.
    public static func binaryPath() -> String {
        if let path = ProcessInfo.processInfo.environment["WIDGET_SERVER_BIN"], !path.isEmpty { return path }
        return Products.path("widget-server")
    }
}
