import Foundation

/// One client count of `widget-load peer`: our fan-out against libwebsockets' mirror, each
/// measured the same way (docs/BENCHMARKS.md, "Side by side with libwebsockets' mirror").
struct PeerComparison: Encodable {
    /// One server's figures over the window.
    struct Side: Encodable {
        var connected: Int
        /// Clients that received at least one frame (peer: message) in the window.
        var clientsReceiving: Int
        /// Connections that failed or were closed, by reason.
        var errors: [String: Int]
        /// Frames (peer: messages) received per second by all clients together.
        var deliveriesPerSecond: Double
        /// Per client: received over sent (ours: rendered), median and min.
        var deliveredMedian: Double?
        var deliveredMin: Double?
        /// Frames the room rendered (peer: messages client 0 wrote) per second.
        var sentPerSecond: Double?
        /// Median size of a frame (peer: message) received, in bytes.
        var messageBytes: Double?
        /// CPU as a share of one core over the window; the server's per delivery in µs.
        var serverCPU: Double?
        var serverMicrosecondsPerDelivery: Double?
        var generatorCPU: Double
        /// The cores each may run on (/proc/PID/status Cpus_allowed_list).
        var serverCPUs: String?
        var generatorCPUs: String?

        init(_ r: LoadReport, sent: Double?, serverCPUs: String?, generatorCPUs: String?) {
            connected = r.connected
            clientsReceiving = r.clientsWithFrames
            errors = r.errors
            deliveriesPerSecond = r.deliveriesPerSecond
            deliveredMedian = r.deliveredShare.median
            deliveredMin = r.deliveredShare.min
            sentPerSecond = sent
            messageBytes = r.frameBytes.median
            serverCPU = r.serverCPU
            if let cpu = r.serverCPU, r.deliveriesPerSecond > 0 {
                serverMicrosecondsPerDelivery = cpu / r.deliveriesPerSecond * 1e6
            }
            generatorCPU = r.generatorCPU
            self.serverCPUs = serverCPUs
            self.generatorCPUs = generatorCPUs
        }
    }

    var clients: Int
    var ours: Side
    var peer: Side
    /// The mirror instances the peer created (one: every client in the same).
    var peerInstances: [String]
    /// Messages the peer dropped, its ring full (its clients took too long to drain it).
    var peerDropped: Int
    /// Server CPU per delivery, ours over the peer's (the spec: ≤ 1).
    var ratio: Double?

    init(clients: Int, ours: Side, peer: Side, peerInstances: [String], peerDropped: Int) {
        (self.clients, self.ours, self.peer, self.peerInstances, self.peerDropped) =
            (clients, ours, peer, peerInstances, peerDropped)
        // /proc counts CPU in 10 ms ticks: a short, light run of the peer may show none, and then
        // there is no ratio (rather than an infinite one).
        ratio = ours.serverMicrosecondsPerDelivery.flatMap { o in
            peer.serverMicrosecondsPerDelivery.flatMap { $0 > 0 ? o / $0 : nil }
        }
    }

    static func json(_ rows: [PeerComparison]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return String(decoding: try encoder.encode(["rows": rows]), as: UTF8.self)
        } catch {
            return "{\"error\": \"the report could not be written as JSON: \(error)\"}"
        }
    }

    /// The Markdown table `make bench-load` prints.
    static func table(_ rows: [PeerComparison]) -> String {
        var lines = [
            "## Side by side with libwebsockets' mirror (server on CPU \(rows.first?.ours.serverCPUs ?? "?"), "
                + "generator on CPU \(rows.first?.ours.generatorCPUs ?? "?"))", "",
            "| clients | message B, rate/s | ours: deliveries/s | delivered median (min) | server CPU | µs CPU per frame "
                + "| peer: deliveries/s | delivered median (min) | server CPU | µs CPU per message "
                + "| ours / peer (spec ≤ 1) | generator CPU ours / peer |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows {
            lines.append(
                "| \(r.clients) | \(fixed(r.peer.messageBytes, 0)), \(fixed(r.peer.sentPerSecond, 1)) | "
                    + "\(side(r.ours)) | \(side(r.peer)) | \(fixed(r.ratio, 2)) | "
                    + "\(percent(r.ours.generatorCPU)) / \(percent(r.peer.generatorCPU)) |")
        }
        let errors = rows.flatMap { r in
            [("ours", r.ours.errors), ("peer", r.peer.errors)].flatMap { name, errors in
                errors.map { "\(r.clients) \(name): \($0.value) × \($0.key)" }
            }
        }
        if !errors.isEmpty { lines += ["", "Connection errors: " + errors.joined(separator: "; ")] }
        let dropped = rows.filter { $0.peerDropped > 0 }.map { "\($0.clients): \($0.peerDropped)" }
        if !dropped.isEmpty {
            lines += ["", "Messages the peer dropped (ring full): " + dropped.joined(separator: "; ")]
        }
        return lines.joined(separator: "\n")
    }

    private static func side(_ s: Side) -> String {
        "\(fixed(s.deliveriesPerSecond, 0)) | \(percent(s.deliveredMedian, 2)) (\(percent(s.deliveredMin, 2))) | "
            + "\(percent(s.serverCPU)) | \(fixed(s.serverMicrosecondsPerDelivery, 2))"
    }

    private static func fixed(_ v: Double?, _ digits: Int) -> String { TableFigures.fixed(v, digits) }
    private static func percent(_ v: Double?, _ digits: Int = 0) -> String { TableFigures.percent(v, digits) }
}
