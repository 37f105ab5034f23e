import Foundation

/// A real `nats-server` (Debian's package) with JetStream, on a free loopback port and a scratch
/// store directory, for the tests: started ready, stopped, killed and restarted in place.
///
/// The binary is `$NATS_SERVER_BIN` if set, else `nats-server` in /usr/sbin, /usr/bin or
/// /usr/local/bin. Ready means it printed "Server is ready", which nats-server does once it
/// accepts clients (after JetStream has recovered its store, on a restart).
public final class NATSServerProcess {
    public static let startupTimeout = 10.0

    public let port: Int
    /// JetStream's store (`-sd`), kept across `restart()`, removed with the process object.
    public let storeDirectory: String
    public var url: String { "nats://127.0.0.1:\(port)" }
    /// What this run printed so far (nats-server logs to stderr).
    public var output: String { child.output.text }

    private let arguments: [String]
    private var child: ChildProcess

    /// - Parameters:
    ///   - arguments: Passed after the port, JetStream and store options (a cluster's).
    ///   - port: The client port; nil: a free one (picked again if taken before the server binds it).
    public init(arguments: [String] = [], port: Int? = nil) throws {
        storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nats-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: false)
        self.arguments = arguments
        var attempt = 1
        while true {
            let candidate = try port ?? LoopbackPort.free()
            do {
                child = try Self.start(port: candidate, storeDirectory: storeDirectory, arguments: arguments)
                self.port = candidate
                return
            } catch LaunchError.serverDidNotStart(_, let output)
                where port == nil && attempt < 3 && output.contains("address already in use")
            {
                attempt += 1
            } catch {
                try? FileManager.default.removeItem(atPath: storeDirectory)
                throw error
            }
        }
    }

    deinit {
        child.stop()
        try? FileManager.default.removeItem(atPath: storeDirectory)
    }

    /// Whether a line of this run's output (already written or yet to come) satisfies `predicate`
    /// within `timeout` seconds.
    public func hasLine(timeout: Double, where predicate: (String) -> Bool) -> Bool {
        child.output.waitForLine(timeout: timeout, where: predicate) != nil
    }

    /// SIGTERM (nats-server shuts down cleanly), and wait for it to exit; SIGKILL after 5 s.
    public func stop() { child.stop() }

    /// SIGKILL, and wait for it to be gone: nothing is flushed or closed cleanly.
    public func kill() {
        child.send(signal: SIGKILL)
        child.waitForExit(timeout: 5)
    }

    /// Starts it again on the same port and store (after `stop()` or `kill()`; stops it first
    /// if it still runs), returning once it is ready.
    public func restart() throws {
        child.stop()
        child = try Self.start(port: port, storeDirectory: storeDirectory, arguments: arguments)
    }

    /// Its process id (the current run's).
    public var pid: pid_t { child.pid }

    /// True once the current run has exited.
    public var hasExited: Bool { child.hasExited }

    private static func start(port: Int, storeDirectory: String, arguments: [String]) throws -> ChildProcess {
        let child = try ChildProcess(
            executable: try binaryPath(),
            arguments: ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDirectory] + arguments)
        guard child.output.waitForLine(timeout: startupTimeout, where: { $0.contains("Server is ready") }) != nil else {
            let reason =
                child.waitForExit(timeout: 1)
                ? "nats-server exited before it was ready" : "nats-server not ready within \(startupTimeout)s"
            child.stop()
            throw LaunchError.serverDidNotStart(reason: reason, output: child.output.text)
        }
        return child
    }

    /// `$NATS_SERVER_BIN`, else the first `nats-server` installed in the usual places.
    public static func binaryPath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["NATS_SERVER_BIN"], !path.isEmpty { return path }
        let candidates = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"]
        guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw LaunchError.launchFailed(
                executable: "nats-server", reason: "not installed (Debian: nats-server; `make deps-test` installs it)")
        }
        return path
    }
}
