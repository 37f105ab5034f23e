import Foundation
import LoopbackTools
import Testing

/// `ChildProcess.waitForExit` and the output collected: what a child wrote is there once it has
/// exited, although its pipes are drained by threads of their own.
@Suite struct ChildOutputTests {
    @Test(
        "waitForExit waits for the pipes to end: a line written 0.3 s after the child exits (by a process it left behind) is in output"
    )
    func lastLinesRead() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "(sleep 0.3; echo late) & echo early"])
        #expect(child.waitForExit(timeout: 10))
        #expect(child.output.allLines == ["early", "late"])
    }

    @Test("…for at most a second more: pipes a process it left behind keeps open for 6 s do not hold it up")
    func boundedWait() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "(sleep 6) & echo early"])
        let start = Date()
        #expect(child.waitForExit(timeout: 10))
        #expect(Date().timeIntervalSince(start) < 5, "waited as long as the process left behind")
        #expect(child.output.allLines == ["early"])
        #expect(!child.output.waitForEnd(timeout: 0), "the pipes are still open")
    }
}
