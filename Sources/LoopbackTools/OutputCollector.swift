import Foundation
import Glibc

/// Collects the lines a child process writes to its pipes.
///
/// Each pipe is drained by a thread blocked in read(), so a chatty child never stalls
/// on a full pipe while no test is looking; waiting for a line is a condition wait with
/// a deadline, woken by each new line.
// @unchecked Sendable: the reader threads and the test thread share it; all mutable
// state is guarded by `condition`.
public final class OutputCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var openStreams = 0

    /// Starts draining `handle` until end of file. The thread keeps `handle` (and so its
    /// descriptor) alive until then.
    func attach(_ handle: FileHandle) {
        condition.withLock { openStreams += 1 }
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending += chunk[..<count]
                var complete: [String] = []
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    complete.append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
                if !complete.isEmpty { append(complete) }
            }
            append(pending.isEmpty ? [] : [String(decoding: pending, as: UTF8.self)], closing: true)
        }
        thread.name = "OutputCollector"
        thread.start()
    }

    /// Every line so far, in arrival order across streams.
    public var allLines: [String] { condition.withLock { lines } }

    /// Everything collected so far, one line per line.
    public var text: String { allLines.joined(separator: "\n") }

    /// The first line (already seen or yet to come) that satisfies `predicate`; nil if
    /// `timeout` passes or every stream ends first.
    public func waitForLine(timeout: Double, where predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: max(timeout, 0))
        condition.lock()
        defer { condition.unlock() }
        var checked = 0
        while true {
            if let match = lines[checked...].first(where: predicate) { return match }
            checked = lines.count
            guard openStreams > 0, condition.wait(until: deadline) else { return nil }
        }
    }

    /// Waits up to `timeout` seconds for every stream to end (its writer gone): true if they have.
    @discardableResult
    public func waitForEnd(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(timeout, 0))
        condition.lock()
        defer { condition.unlock() }
        while openStreams > 0 {
            guard condition.wait(until: deadline) else { return openStreams == 0 }
        }
        return true
    }

    private func append(_ newLines: [String], closing: Bool = false) {
        condition.withLock {
            lines += newLines
            if closing { openStreams -= 1 }
            condition.broadcast()
        }
    }
}
