import Foundation
import LoopbackTools

/// The server a soak runs against: its pid (for /proc) and whether it still runs.
struct SoakedServer {
    let pid: Int32
    let isRunning: () -> Bool

    /// Its open file descriptors and resident memory now (and `peakKiB`, the highest the caller
    /// saw since the phase began), also shown on stderr as the soak goes.
    func sample(
        _ label: String, seconds: Double, connections: Int, cycles: Int? = nil, moment: String? = nil,
        peakKiB: Int? = nil
    ) -> ServerSample {
        let rss = ProcessUsage.residentKiB(pid: pid)
        let sample = ServerSample(
            label: label, seconds: (seconds * 1000).rounded() / 1000, fds: ProcessUsage.openFiles(pid: pid),
            rssKiB: rss, peakKiB: peakKiB.map { max($0, rss ?? $0) }, connections: connections, cycles: cycles,
            moment: moment)
        let fds = sample.fds.map(String.init) ?? "?", resident = rss.map(String.init) ?? "?"
        Self.progress(
            "\(label) at \(Int(seconds)) s\(cycles.map { ", \($0) cycles" } ?? "")\(moment.map { " (\($0))" } ?? ""): "
                + "\(connections) connections, server \(fds) fds, \(resident) KiB"
                + (sample.peakKiB.map { " (\($0) KiB at most since the phase began)" } ?? ""))
        return sample
    }

    /// Counts the kernel's mark (VmHWM) from now: a phase's readings then see its own peaks, not
    /// an earlier phase's. False where /proc does not allow it (it then counts from the server's start).
    func resetPeak() -> Bool { ProcessUsage.resetPeakResident(pid: pid) }

    /// The highest resident memory to be seen now: the kernel's mark, or what is resident. The
    /// mark is raised only on some of the paths that give memory back (a top given back through
    /// another is missed), so a soak polls this and keeps its own highest too.
    func peakNow() -> Int? {
        let rss = ProcessUsage.residentKiB(pid: pid), mark = ProcessUsage.peakResidentKiB(pid: pid)
        return [rss, mark].compactMap { $0 }.max()
    }

    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("widget-load soak: \(line)\n".utf8))
    }
}
