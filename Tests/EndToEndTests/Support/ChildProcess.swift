import Foundation
import Glibc

/// A launched executable with its stdout and stderr collected, whose exit can be awaited
/// with a deadline (event-driven: Foundation's termination handler signals a semaphore).
final class ChildProcess {
    let output = OutputCollector()
    private let process = Process()
    private let exitSignal = DispatchSemaphore(value: 0)
    private var exited = false

    init(executable: String, arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exitSignal] _ in exitSignal.signal() }
        try process.run()
        output.attach(stdout.fileHandleForReading)
        output.attach(stderr.fileHandleForReading)
    }

    var pid: Int32 { process.processIdentifier }

    /// True once the process has exited (waits for nothing).
    var hasExited: Bool { waitForExit(timeout: 0) }

    /// Waits up to `timeout` seconds for the process to exit; true if it has.
    @discardableResult
    func waitForExit(timeout: Double) -> Bool {
        if !exited && exitSignal.wait(timeout: .now() + max(timeout, 0)) == .success {
            exited = true
        }
        return exited
    }

    /// Sends `signal` unless the process has already exited (its pid may be reused then).
    func send(signal: Int32) {
        if !hasExited { kill(pid, signal) }
    }

    /// SIGTERM, then SIGKILL if it has not exited within `grace` seconds.
    func stop(grace: Double = 5) {
        send(signal: SIGTERM)
        if !waitForExit(timeout: grace) {
            send(signal: SIGKILL)
            waitForExit(timeout: 5)
        }
    }
}
