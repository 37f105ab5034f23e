import Foundation
import LoopbackTools

/// A system tool (systemd-analyze, nginx, openssl) run to its end within a deadline, with
/// everything it printed on stdout and stderr.
struct ToolRun {
    /// How it ended; nil if it was still running at the deadline (it was stopped then).
    let exit: ChildProcess.Exit?
    let output: String

    var succeeded: Bool { exit == .code(0) }

    init(_ executable: String, _ arguments: [String], timeout: Double = 60) throws {
        try Self.require(executable)
        let child = try ChildProcess(executable: executable, arguments: arguments)
        let exited = child.waitForExit(timeout: timeout)
        if !exited { child.stop() }
        // Complete once both streams have closed.
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        exit = exited ? child.exit : nil
        output = child.output.text
    }

    /// Throws, saying how to install it, when `executable` is not there.
    static func require(_ executable: String) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw WireError(
                "\(executable) not found: the deploy tests need systemd, nginx and openssl. `make test` installs "
                    + "them (TEST_PACKAGES); or run `apt-get install -y --no-install-recommends systemd nginx openssl`."
            )
        }
    }
}
