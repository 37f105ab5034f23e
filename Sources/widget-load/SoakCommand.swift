import ArgumentParser
import Foundation
import LoopbackTools

extension WidgetLoad {
    /// `make soak`: connect/disconnect cycles, a multi-client replay of the golden traces, then
    /// rounds of hostile clients, reading the server's descriptors and memory before, during and
    /// after each (docs/RELIABILITY.md, "Soak"). Exits 1 when anything grew or failed.
    struct Soak: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Soaks a server: connect/disconnect cycles, a multi-client trace replay, then hostile clients.",
            discussion: """
                Prints a JSON report and a Markdown table, and exits 1 (naming why) when a connection \
                failed, the server sent an unexpected error, a refusal its rules call for did not come, \
                it exited, its open file descriptors after a phase exceed those after the warm-up, or \
                its resident memory grew past --max-rss-growth. The hostile rounds expect a server \
                with the default limits (4096 clients, 256 waiting for hello, 120 new rooms at once).
                """)

        @OptionGroup var server: ServerOptions

        @Option(help: "Connect/disconnect cycles (0…100000; 0 skips them).")
        var cycles = 10_000

        @Option(help: "Connections in flight at once during the cycles (1…256).")
        var concurrency = 32

        @Option(help: "Minutes of multi-client replay (0…60; 0 skips it).")
        var minutes = 10.0

        @Option(help: "Replay clients (1…100), spread over --rooms demo rooms.")
        var clients = 12

        @Option(help: "Rooms the replay clients share (1…clients).")
        var rooms = 3

        @Option(help: "The traces the replay clients play (docs/TRACES.md).")
        var traces = "Tests/ScrollCoreTests/Traces"

        @Option(help: "Rounds of hostile clients after a warm-up round (0…20; 0 skips them), about 50 s each.")
        var hostileRounds = 2

        @Option(help: "Bursts of 2,000 wheels per round (0…10; past 3, the 32 MiB cap closes the stalled readers).")
        var bursts = 3

        @Option(help: "Burst-room readers per round that stop reading, then read again after the stall (0…32).")
        var stalled = 4

        @Option(help: "Burst-room readers per round that never read again (0…32): 45 s more per round.")
        var vanished = 2

        @Option(help: "TCP connections per round that never finish their HTTP headers (0…1000).")
        var idleSockets = 48

        @Option(help: "WebSockets per round that never send hello (0…1000); those past 256 are refused.")
        var helloLess = 264

        @Option(help: "New rooms per round asked for at once (0…1000); those past 120 are refused.")
        var rushedRooms = 150

        @Option(help: "New rooms per round after the rush, one every 2 s (0…60).")
        var pacedRooms = 10

        @Option(help: "The started server's room store: scratch (a new SQLite file, removed after) or none.")
        var state: String?

        @Option(help: "Resident memory growth allowed after the warm-up, in MiB.")
        var maxRssGrowth = 4.0

        func validate() throws {
            guard (0...100_000).contains(cycles) else { throw ValidationError("--cycles must be 0…100000") }
            guard (1...256).contains(concurrency) else { throw ValidationError("--concurrency must be 1…256") }
            guard minutes.isFinite, (0...60).contains(minutes) else { throw ValidationError("--minutes must be 0…60") }
            guard cycles > 0 || minutes > 0 || hostileRounds > 0 else {
                throw ValidationError("nothing to do: --cycles, --minutes and --hostile-rounds are 0")
            }
            guard (0...20).contains(hostileRounds) else { throw ValidationError("--hostile-rounds must be 0…20") }
            guard (0...10).contains(bursts) else { throw ValidationError("--bursts must be 0…10") }
            guard bursts > 0 || stalled == 0 else {
                throw ValidationError("--stalled needs a burst: it is what fills their sockets")
            }
            guard (0...32).contains(stalled), (0...32).contains(vanished) else {
                throw ValidationError("--stalled and --vanished must be 0…32")
            }
            guard (0...1000).contains(idleSockets), (0...1000).contains(helloLess), (0...1000).contains(rushedRooms)
            else { throw ValidationError("--idle-sockets, --hello-less and --rushed-rooms must be 0…1000") }
            guard (0...60).contains(pacedRooms) else { throw ValidationError("--paced-rooms must be 0…60") }
            if let state, state != "scratch", state != "none" {
                throw ValidationError("--state must be scratch or none")
            }
            guard (1...100).contains(clients) else { throw ValidationError("--clients must be 1…100") }
            guard (1...clients).contains(rooms) else { throw ValidationError("--rooms must be 1…clients") }
            guard maxRssGrowth.isFinite, maxRssGrowth >= 0 else {
                throw ValidationError("--max-rss-growth must be ≥ 0")
            }
            if let url = server.url {
                _ = try LoopbackTarget(url: url)
                guard state == nil else {
                    throw ValidationError("--state is for the server the soak starts, not --url's")
                }
                guard server.serverPID != nil else {
                    throw ValidationError(
                        "--url needs --server-pid: the soak reads the server's descriptors and memory")
                }
            }
        }

        func run() throws {
            let traces = minutes > 0 ? try SoakTrace.load(directory: self.traces) : []
            var child: ServerProcess?
            let target: LoopbackTarget
            let soaked: SoakedServer
            let scratch = server.url == nil && state != "none" ? try ScratchDirectory() : nil
            defer { scratch?.remove() }
            if let url = server.url, let pid = server.serverPID {
                target = try LoopbackTarget(url: url)
                soaked = SoakedServer(pid: pid) { ProcessUsage.isRunning(pid: pid) }
            } else {
                let started = try startServer(stateFile: scratch?.path("rooms.sqlite"))
                child = started
                target = LoopbackTarget(address: "127.0.0.1", port: started.port)
                soaked = SoakedServer(pid: started.pid) { !started.hasExited }
            }
            defer { child?.stop() }

            var cycleOutcome: CycleSoak.Outcome?
            if cycles > 0 {
                SoakedServer.progress("phase 1: \(cycles) connect/disconnect cycles, \(concurrency) in flight")
                var options = CycleSoak.Options()
                options.cycles = cycles
                options.concurrency = concurrency
                cycleOutcome = try CycleSoak(options: options, target: target, server: soaked).run()
            }
            var replayOutcome: ReplaySoak.Outcome?
            if minutes > 0, cycleOutcome?.stopped == nil {
                SoakedServer.progress(
                    "phase 2: \(clients) clients in \(rooms) rooms replay \(traces.count) traces for \(minutes) min")
                var options = ReplaySoak.Options()
                options.clients = clients
                options.rooms = rooms
                options.duration = minutes * 60
                replayOutcome = try ReplaySoak(options: options, traces: traces, target: target, server: soaked).run()
            }
            var hostileOutcome: HostileSoak.Outcome?
            var hostileOptions = HostileSoak.Options()
            if hostileRounds > 0, cycleOutcome?.stopped == nil, replayOutcome?.stopped == nil {
                SoakedServer.progress("phase 3: hostile clients, a warm-up round and \(hostileRounds) more")
                hostileOptions.rounds = hostileRounds
                hostileOptions.bursts = bursts
                hostileOptions.stalled = stalled
                hostileOptions.vanished = vanished
                hostileOptions.idleSockets = idleSockets
                hostileOptions.helloLess = helloLess
                hostileOptions.rushedRooms = rushedRooms
                hostileOptions.pacedRooms = pacedRooms
                hostileOutcome = try HostileSoak(options: hostileOptions, target: target, server: soaked).run()
            }
            let serverRunning = soaked.isRunning()
            // The rooms the phases changed (the cycles change none): through the store and back.
            var storeOutcome: StoreCheck.Outcome?
            let changed =
                (replayOutcome == nil ? [] : (0..<rooms).map(ReplaySoak.room))
                + (0..<(hostileOutcome?.rounds ?? 0)).map(hostileOptions.burstRoom)
            let stopped = [cycleOutcome?.stopped, replayOutcome?.stopped, hostileOutcome?.stopped].contains {
                $0 != nil
            }
            if let child, let scratch, serverRunning, !stopped, !changed.isEmpty {
                SoakedServer.progress(
                    "the store: \(changed.count) rooms read, the server restarted on its state file, read again")
                storeOutcome = StoreCheck(rooms: changed).run(server: child) {
                    try startServer(stateFile: scratch.path("rooms.sqlite"))
                }
            }
            let report = SoakReport(
                serverPID: soaked.pid, rssGrowthKiB: Int(maxRssGrowth * 1024), cycles: cycleOutcome,
                replay: replayOutcome, hostile: hostileOutcome, store: storeOutcome,
                state: server.url == nil ? (scratch == nil ? "none" : "scratch") : nil,
                serverRunning: serverRunning)
            print(report.json)
            print("")
            print(report.markdown)
            if !report.passed {
                SoakedServer.progress("FAILED: " + report.problems.joined(separator: "; "))
                throw ExitCode(1)
            }
        }

        /// A fresh server on a free port. Room for every hostile connection at once; few rooms, so
        /// the rush of new rooms fills them in the warm-up round and every later one evicts (and
        /// stores) one.
        private func startServer(stateFile: String?) throws -> ServerProcess {
            let hostile = hostileRounds > 0 ? helloLess + stalled + vanished + 64 : 0
            return try ServerProcess.forRun(
                executable: server.server, maxClients: max(concurrency, clients) + 64 + hostile,
                maxRooms: hostileRounds > 0 ? 64 : 256, publicDirectory: server.public, stateFile: stateFile)
        }
    }
}
