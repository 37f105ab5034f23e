import Foundation
import LoopbackTools

/// The server a soak runs against: its pid (for /proc) and whether it still runs.
struct SoakedServer {
    let pid: Int32
    let isRunning: () -> Bool

    /// Its open file descriptors and resident memory now (`peaks`: and the highest since
    /// `resetPeak`), also shown on stderr as the soak goes.
    func sample(
        _ label: String, seconds: Double, connections: Int, cycles: Int? = nil, moment: String? = nil,
        peaks: Bool = false
    ) -> ServerSample {
        let sample = ServerSample(
            label: label, seconds: (seconds * 1000).rounded() / 1000, fds: ProcessUsage.openFiles(pid: pid),
            rssKiB: ProcessUsage.residentKiB(pid: pid), peakKiB: peaks ? ProcessUsage.peakResidentKiB(pid: pid) : nil,
            connections: connections, cycles: cycles, moment: moment)
        let fds = sample.fds.map(String.init) ?? "?", rss = sample.rssKiB.map(String.init) ?? "?"
        Self.progress(
            "\(label) at \(Int(seconds)) s\(cycles.map { ", \($0) cycles" } ?? "")\(moment.map { " (\($0))" } ?? ""): "
                + "\(connections) connections, server \(fds) fds, \(rss) KiB"
                + (sample.peakKiB.map { " (\($0) KiB at most since the phase began)" } ?? ""))
        return sample
    }

    /// Counts the peak (VmHWM) from now: a phase's readings then see its own peaks, not an earlier
    /// phase's. False where /proc does not allow it (the peak then counts from the server's start).
    func resetPeak() -> Bool { ProcessUsage.resetPeakResident(pid: pid) }

    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("widget-load soak: \(line)\n".utf8))
    }
}
