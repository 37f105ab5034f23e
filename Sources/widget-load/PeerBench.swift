import ArgumentParser
import Foundation
import Glibc
import LoopbackTools

extension WidgetLoad {
    /// `make bench-load`'s last step (docs/BENCHMARKS.md, "Side by side with libwebsockets'
    /// mirror"): for each client count, our fan-out during a fling, then libwebsockets' test server
    /// relaying messages of our median frame's size at our frame rate to as many clients of one
    /// mirror instance. The server under test runs on one core, this generator on another.
    struct PeerBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "peer",
            abstract: "Measures our fan-out and libwebsockets' mirror side by side and prints the table.")

        @Option(help: "The widget-server to start (default: the one beside this executable).")
        var server: String?

        @Option(help: "--public for the started widget-server.")
        var `public`: String?

        @Option(help: "Client counts (each: one room of ours, one mirror instance of the peer).")
        var clients: [Int] = [500, 1000, 2000]

        @Option(help: "Seconds counted per run (0.5…60).")
        var duration = 5.0

        @Option(help: "The core the server under test runs on (taskset).")
        var serverCPU = 0

        @Option(help: "The core this generator runs on.")
        var generatorCPU = 1

        @Flag(help: "Print the rows as JSON instead of the table.")
        var json = false

        func validate() throws {
            guard clients.allSatisfy({ (2...6000).contains($0) }) else { throw ValidationError("--clients: 2…6000") }
            guard (0.5...60).contains(duration) else { throw ValidationError("--duration must be 0.5…60 s") }
            let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            guard serverCPU != generatorCPU, [serverCPU, generatorCPU].allSatisfy({ (0..<cores).contains($0) })
            else { throw ValidationError("--server-cpu and --generator-cpu: two different cores of 0…\(cores - 1)") }
        }

        func run() throws {
            try CPUAffinity.pin(pid: getpid(), cpus: String(generatorCPU))
            var rows: [PeerComparison] = []
            for count in clients {
                var options = LoadOptions()
                options.clients = count
                options.duration = duration
                options.roomPrefix = "peer\(count)"
                let (ours, oursCPUs) = try measureOurs(options)
                // The peer gets what each of our clients got: frames of that size at the room's rate.
                guard let bytes = ours.frameBytes.median, let rate = ours.renderedPerSecond else {
                    throw LoadFailure(description: "\(count) clients: our run delivered no frames to size the peer's")
                }
                options.script = .mirror
                options.messageBytes = Int(bytes.rounded())
                options.messageRate = rate
                let (peer, peerCPUs, mirror) = try measurePeer(options)
                let own = ProcessUsage.allowedCPUs(pid: getpid())
                rows.append(
                    PeerComparison(
                        clients: count,
                        ours: .init(ours, sent: ours.renderedPerSecond, serverCPUs: oursCPUs, generatorCPUs: own),
                        peer: .init(peer, sent: peer.messagesSentPerSecond, serverCPUs: peerCPUs, generatorCPUs: own),
                        peerInstances: mirror.instancesCreated, peerDropped: mirror.messagesDropped))
            }
            print(json ? PeerComparison.json(rows) : PeerComparison.table(rows))
        }

        private var pinned: [String] { CPUAffinity.launcher(cpus: String(serverCPU)) }

        private func measureOurs(_ options: LoadOptions) throws -> (LoadReport, String?) {
            let child = try ServerProcess.forRun(
                executable: server, maxClients: options.clients + 16, maxRooms: 256, publicDirectory: `public`,
                launcher: pinned)
            defer { child.stop() }
            let cpus = ProcessUsage.allowedCPUs(pid: child.pid)
            let target = LoopbackTarget(address: "127.0.0.1", port: child.port)
            let report = try LoadRun(options: options, target: target, serverPID: child.pid).run()
            progress("ours", options, report)
            return (report, cpus)
        }

        private func measurePeer(_ options: LoadOptions) throws -> (LoadReport, String?, MirrorServer) {
            let mirror = try MirrorServer(launcher: pinned)
            defer { mirror.stop() }
            let cpus = ProcessUsage.allowedCPUs(pid: mirror.pid)
            let target = LoopbackTarget(
                address: "127.0.0.1", port: mirror.port, path: MirrorServer.path(instance: options.roomPrefix))
            let report = try LoadRun(options: options, target: target, serverPID: mirror.pid).run()
            progress("peer", options, report)
            return (report, cpus, mirror)
        }

        private func progress(_ side: String, _ options: LoadOptions, _ r: LoadReport) {
            let line = String(
                format: "… %@ %d clients: %.0f deliveries/s, server %.0f %%, generator %.0f %%\n", side,
                options.clients, r.deliveriesPerSecond, (r.serverCPU ?? .nan) * 100, r.generatorCPU * 100)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
