import Foundation

/// What one run measured; printed as JSON (`widget-load run`) or a table row (`suite`).
struct LoadReport: Encodable {
    struct Spread: Encodable {
        var median: Double?
        var min: Double?
        var p99: Double?
        var max: Double?

        init(_ values: [Double]) {
            let p = Percentiles(values)
            (median, min, p99, max) = (p.median, p.min, p[0.99], p.max)
        }
    }

    struct Latency: Encodable {
        var samples: Int
        var lost: Int
        var inputToFrameMs: Spread
        var echoMs: Spread
        /// Median input-to-frame over median echo (budget ≤ 1.3).
        var ratio: Double?
        /// How long the connection stood idle before each move and before each ping.
        var idleBeforeMoveMs: Spread
        var idleBeforePingMs: Spread
    }

    struct Memory: Encodable {
        var beforeKiB: Int
        /// After connecting and settling, before anything moved.
        var afterKiB: Int
        var perClientKiB: Double
        /// At the end of the run.
        var endKiB: Int?
    }

    var clients: Int
    var rooms: Int
    var scene: String
    var script: String
    var connected: Int
    /// Distinct reasons connections failed or were refused, with counts.
    var errors: [String: Int]
    var connectSeconds: Double
    var windowSeconds: Double
    /// Clients that received at least one frame in the window.
    var clientsWithFrames: Int
    var framesPerClientPerSecond: Spread
    /// Per client: frames received (and unchanged ones not sent) over frames the room rendered.
    var deliveredShare: Spread
    /// The rooms' own frame rate (frames rendered per second), median over rooms.
    var renderedPerSecond: Double?
    var bytesPerClientPerSecond: Spread
    /// Every message a client received (frames, events, semantics, …): its sends.
    var messagesPerClientPerSecond: Spread
    /// Frames (mirror: messages) received per second by all clients together.
    var deliveriesPerSecond: Double
    /// Bytes of each frame (mirror: message) received, over every client.
    var frameBytes: Spread
    /// The mirror script: messages client 0 wrote per second.
    var messagesSentPerSecond: Double?
    /// Server and generator CPU in the window, as a share of one core.
    var serverCPU: Double?
    /// The other server processes' (a cluster's other nodes), as a share of one core each.
    var otherServersCPU: [Double]?
    var generatorCPU: Double
    var latency: Latency?
    var serverMemory: Memory?
    /// Bytes received by all clients over one second with nothing moving (idle script).
    var idleBytes: Int?

    init(
        options: LoadOptions, peers: [Peer], roomNewest: [UInt32], measure: LoadRun.Measurements,
        probe: LatencyProbe
    ) {
        clients = options.clients
        rooms = options.rooms
        scene = options.scene
        script = options.script.rawValue
        connected = peers.filter(\.joined).count
        errors = peers.compactMap(\.error).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        connectSeconds = measure.connectSeconds
        let window = max(measure.windowEnd - measure.windowStart, 0)
        windowSeconds = window
        let seconds = max(window, 1e-9)
        clientsWithFrames = peers.filter { $0.tally.frames > 0 }.count
        framesPerClientPerSecond = Spread(peers.map { Double($0.tally.frames) / seconds })
        deliveredShare = Spread(
            peers.enumerated().map { i, peer in peer.tally.delivered(roomNewest: roomNewest[i % options.rooms]) })
        let rendered = (0..<options.rooms).compactMap { room -> Double? in
            let first = stride(from: room, to: peers.count, by: options.rooms).map { peers[$0].tally.firstSeq }
                .filter { $0 > 0 }.min()
            return first.map { Double(Int(roomNewest[room]) - Int($0) + 1) / seconds }
        }
        renderedPerSecond = Percentiles(rendered).median
        bytesPerClientPerSecond = Spread(peers.map { Double($0.tally.bytes) / seconds })
        messagesPerClientPerSecond = Spread(peers.map { Double($0.tally.messages) / seconds })
        deliveriesPerSecond = Double(peers.reduce(0) { $0 + $1.tally.frames }) / seconds
        frameBytes = Spread(measure.frameSizes.map(Double.init))
        if options.script == .mirror {
            messagesSentPerSecond = Double(measure.mirrorSeqs.1 - measure.mirrorSeqs.0) / seconds
        }
        if let start = measure.serverCPU.0, let end = measure.serverCPU.1 { serverCPU = (end - start) / seconds }
        generatorCPU = (measure.ownCPU.1 - measure.ownCPU.0) / seconds
        let others = measure.otherCPU.compactMap { pair in pair.0.flatMap { a in pair.1.map { ($0 - a) / seconds } } }
        otherServersCPU = others.isEmpty ? nil : others
        if options.script == .drag {
            let toFrame = Spread(probe.inputToFrame), echo = Spread(probe.echo)
            latency = Latency(
                samples: min(probe.inputToFrame.count, probe.echo.count), lost: probe.lost,
                inputToFrameMs: toFrame, echoMs: echo,
                ratio: toFrame.median.flatMap { f in echo.median.map { f / $0 } },
                idleBeforeMoveMs: Spread(probe.idleBeforeMove), idleBeforePingMs: Spread(probe.idleBeforePing))
        }
        if let before = measure.rssBefore, let after = measure.rssAfter {
            serverMemory = Memory(
                beforeKiB: before, afterKiB: after, perClientKiB: Double(after - before) / Double(max(clients, 1)),
                endKiB: measure.rssEnd)
        }
        idleBytes = measure.idleBytes
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
