import Foundation
import Glibc
import LoopbackTools
import Testing

/// `ProcessUsage` reads another process's descriptors, memory and state from /proc.
@Suite struct ProcessUsageTests {
    /// A shell that opens two more files when sent SIGUSR1, and otherwise waits.
    private func shell() throws -> ChildProcess {
        try ChildProcess(
            executable: "/bin/sh",
            arguments: [
                "-c", "trap 'exec 3</dev/null 4</dev/null; echo opened' USR1; echo ready; while :; do sleep 0.05; done",
            ])
    }

    @Test("open descriptors are the entries of /proc/PID/fd: two files opened count two more")
    func openFiles() throws {
        let child = try shell()
        defer { child.stop() }
        #expect(child.output.waitForLine(timeout: 5) { $0 == "ready" } != nil)
        let before = try #require(ProcessUsage.openFiles(pid: child.pid))
        #expect(before >= 3, "stdin, stdout and stderr at least: \(before)")
        child.send(signal: SIGUSR1)
        #expect(child.output.waitForLine(timeout: 5) { $0 == "opened" } != nil)
        #expect(ProcessUsage.openFiles(pid: child.pid) == before + 2)
    }

    @Test("a running process has resident memory (KiB) and CPU time; once it has exited, nothing is read")
    func memoryAndState() throws {
        let child = try shell()
        #expect(child.output.waitForLine(timeout: 5) { $0 == "ready" } != nil)
        #expect(ProcessUsage.isRunning(pid: child.pid))
        // A shell's resident set is a few hundred KiB to a few MiB.
        let rss = try #require(ProcessUsage.residentKiB(pid: child.pid))
        #expect(rss > 100 && rss < 64 * 1024, "\(rss) KiB")
        #expect((ProcessUsage.cpu(pid: child.pid) ?? -1) >= 0)
        child.stop()
        #expect(child.hasExited)
        #expect(!ProcessUsage.isRunning(pid: child.pid))
        #expect(ProcessUsage.residentKiB(pid: child.pid) == nil)
        #expect(ProcessUsage.openFiles(pid: child.pid) == nil)
    }

    @Test("the peak counts 64 MiB touched and given back between two readings, until it is reset")
    func peakResident() throws {
        let child = try ChildProcess(
            executable: "/usr/bin/python3",
            arguments: [
                "-c", "import sys, time\nb = bytearray(64 << 20)\ndel b\nprint('freed', flush=True)\ntime.sleep(60)",
            ])
        defer { child.stop() }
        #expect(child.output.waitForLine(timeout: 10) { $0 == "freed" } != nil)
        let rss = try #require(ProcessUsage.residentKiB(pid: child.pid))
        let peak = try #require(ProcessUsage.peakResidentKiB(pid: child.pid))
        // The 64 MiB were resident once (zeroed by the allocation) and are gone now.
        #expect(peak >= rss + 60 * 1024, "peak \(peak) KiB, resident \(rss) KiB")
        #expect(ProcessUsage.resetPeakResident(pid: child.pid))
        let again = try #require(ProcessUsage.peakResidentKiB(pid: child.pid))
        #expect(again < rss + 4 * 1024, "peak \(again) KiB after the reset, resident \(rss) KiB")
    }
}
