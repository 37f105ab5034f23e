import ArgumentParser
import Foundation
import LoopbackTools
import ScrollCore
import ScrollServer
import WebSocketClient

extension WidgetLoad {
    /// `make bench-cluster` (docs/BENCHMARKS.md, "Cluster"): a nats-server and three release nodes
    /// on loopback; one room's audience on its owner alone against the same audience over three
    /// nodes, input → frame on a relay against on the owner, and failover time over repeated kills.
    struct ClusterBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cluster", abstract: "Measures a three-node cluster on loopback and prints the table.")

        @Option(help: "The widget-server to start (default: the one beside this executable).")
        var server: String?

        @Option(help: "Audience sizes for the fan-out runs.")
        var viewers: [Int] = [300, 1000]

        @Option(help: "Seconds counted per fan-out run.")
        var duration = 5.0

        @Option(help: "Latency samples per input → frame run.")
        var samples = 2000

        @Option(help: "Owners killed for the failover time.")
        var kills = 20

        @Flag(help: "Also print each run's JSON report to stderr.")
        var verbose = false

        func validate() throws {
            guard viewers.allSatisfy({ (1...6000).contains($0) }) else { throw ValidationError("--viewers: 1…6000") }
            guard (1...100).contains(kills) else { throw ValidationError("--kills must be 1…100") }
        }

        func run() throws {
            let nats = try NATSServerProcess()
            var nodes = try (1...3).map { try node("n\($0)", nats: nats) }
            defer { for n in nodes { n.stop() } }
            var rows: [String] = []

            for count in viewers {
                var options = LoadOptions()
                options.clients = count
                options.duration = duration
                options.scene = "demo"
                for spread in [1, 3] {
                    // Each run its own room, claimed by node 1 first: the driver (client 0) is there.
                    options.roomPrefix = "fan\(count)x\(spread)"
                    try claim(options.room(of: 0), on: nodes[0])
                    let report = try LoadRun(
                        options: options, targets: nodes.prefix(spread).map(target), serverPID: nodes[0].pid,
                        otherPIDs: nodes.dropFirst().prefix(spread - 1).map(\.pid)
                    ).run()
                    if verbose { FileHandle.standardError.write(Data((report.json + "\n").utf8)) }
                    rows.append(fanOutRow(count, spread, report))
                }
            }
            for (label, on) in [("on the owner", 0), ("on a relay", 1)] {
                var options = LoadOptions()
                options.clients = 1
                options.script = .drag
                options.samples = samples
                options.duration = 60
                options.roomPrefix = "latency\(on)"
                try claim(options.room(of: 0), on: nodes[0])
                let report = try LoadRun(options: options, targets: [target(nodes[on])], serverPID: nodes[0].pid).run()
                let l = report.latency
                rows.append(
                    String(
                        format: "| input → frame, client %@ | %.3f ms | echo %.3f ms | ratio %.2f | %d samples |",
                        label, l?.inputToFrameMs.median ?? .nan, l?.echoMs.median ?? .nan, l?.ratio ?? .nan,
                        l?.samples ?? 0))
            }
            let times = try failovers(nats: nats, nodes: &nodes)
            let p = Percentiles(times)
            rows.append(
                String(
                    format: "| failover over %d kills -9 of the owner | median %.2f s | max %.2f s | min %.2f s |",
                    times.count, p.median ?? .nan, p.max ?? .nan, p.min ?? .nan))
            print(rows.joined(separator: "\n"))
        }

        private func node(_ name: String, nats: NATSServerProcess, port: Int = 0) throws -> ServerProcess {
            try ServerProcess(
                port: port,
                arguments: [
                    "--cluster", nats.url, "--node", name, "--max-clients", "8000", "--log-level", "warning",
                ], executable: server ?? Products.path("widget-server"), collectsStandardError: false)
        }

        private func target(_ node: ServerProcess) -> LoopbackTarget {
            LoopbackTarget(address: "127.0.0.1", port: node.port)
        }

        /// A client says hello to `room` on `node` and leaves once welcomed: the node owns it (an
        /// owned room stays owned while it is in memory).
        private func claim(_ room: String, on node: ServerProcess) throws {
            let client = try WebSocketClient(url: node.wsURL, subprotocol: ProtocolVersion.subprotocol)
            defer { client.close() }
            try client.send(text: ClientMessage.hello(.init(room: room, scene: "demo")).encoded())
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if case .text(let text)? = try client.receive(timeout: deadline.timeIntervalSinceNow),
                    text.contains("\"type\":\"welcome\"")
                {
                    return
                }
            }
            throw ValidationError("no welcome from \(node.wsURL) for \(room)")
        }

        /// Kills the owner of a room with a client on a relay; the time until the relay's client
        /// is welcomed again (the room live on it), then the killed node starts again.
        private func failovers(nats: NATSServerProcess, nodes: inout [ServerProcess]) throws -> [Double] {
            var times: [Double] = []
            for i in 0..<kills {
                let room = "failover-\(i)"
                try claim(room, on: nodes[0])
                let client = try WebSocketClient(url: nodes[1].wsURL, subprotocol: ProtocolVersion.subprotocol)
                defer { client.close() }
                try client.send(text: ClientMessage.hello(.init(room: room, scene: "demo")).encoded())
                try waitForWelcome(client, within: 10)
                let port = nodes[0].port
                let killed = MonotonicClock.now()
                nodes[0].kill()
                try waitForWelcome(client, within: 15)
                times.append(MonotonicClock.now() - killed)
                FileHandle.standardError.write(Data(String(format: "… kill %d: %.2f s\n", i + 1, times.last!).utf8))
                nodes[0] = try node("n1", nats: nats, port: port)
            }
            return times
        }

        private func waitForWelcome(_ client: WebSocketClient, within seconds: Double) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if case .text(let text)? = try client.receive(timeout: deadline.timeIntervalSinceNow),
                    text.contains("\"type\":\"welcome\"")
                {
                    return
                }
            }
            throw ValidationError("no welcome within \(seconds) s")
        }

        private func fanOutRow(_ count: Int, _ spread: Int, _ r: LoadReport) -> String {
            let cpu = [r.serverCPU ?? .nan] + (r.otherServersCPU ?? [])
            let perNode = cpu.map { String(format: "%.0f %%", $0 * 100) }.joined(separator: " / ")
            let fps = r.framesPerClientPerSecond.median ?? .nan
            return String(
                format:
                    "| %d viewers on %d node%@ | %.1f fps | %.1f %% delivered | %.0f deliveries/s | CPU %@ | generator %.0f %% |",
                count, spread, spread == 1 ? "" : "s", fps, (r.deliveredShare.median ?? .nan) * 100,
                fps * Double(r.connected), perNode, r.generatorCPU * 100)
        }
    }
}
