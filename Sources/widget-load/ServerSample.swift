import Foundation
import LoopbackTools

/// The server a soak runs against: its pid (for /proc) and whether it still runs.
struct SoakedServer {
    let pid: Int32
    let isRunning: () -> Bool

    /// Its open file descriptors and resident memory now, also shown on stderr as the soak goes.
    func sample(
        _ label: String, seconds: Double, connections: Int, cycles: Int? = nil, moment: String? = nil
    ) -> ServerSample {
        let sample = ServerSample(
            label: label, seconds: (seconds * 1000).rounded() / 1000, fds: ProcessUsage.openFiles(pid: pid),
            rssKiB: ProcessUsage.residentKiB(pid: pid), connections: connections, cycles: cycles, moment: moment)
        let fds = sample.fds.map(String.init) ?? "?", rss = sample.rssKiB.map(String.init) ?? "?"
        Self.progress(
            "\(label) at \(Int(seconds)) s\(cycles.map { ", \($0) cycles" } ?? "")\(moment.map { " (\($0))" } ?? ""): "
                + "\(connections) connections, server \(fds) fds, \(rss) KiB")
        return sample
    }

    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("widget-load soak: \(line)\n".utf8))
    }
}

/// One reading of the server: what the soak's figures and verdict are made of.
struct ServerSample: Encodable {
    /// "start", "before" (after warm-up), "during", "after" (all clients gone, settled).
    var label: String
    /// Seconds since the phase began.
    var seconds: Double
    var fds: Int?
    var rssKiB: Int?
    /// The generator's connections open then (each is one of the server's fds).
    var connections: Int
    /// Connect/disconnect cycles started by then (phase 1).
    var cycles: Int?
    /// What was going on (phase 3's "during" readings).
    var moment: String?
}
