import ArgumentParser
import Foundation
import LoopbackTools

extension WidgetLoad {
    /// `make soak`: connect/disconnect cycles, then a multi-client replay of the golden
    /// traces, reading the server's descriptors and memory before, during and after
    /// (docs/RELIABILITY.md, "Soak"). Exits 1 when anything grew or failed.
    struct Soak: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Soaks a server: connect/disconnect cycles, then a multi-client trace replay.",
            discussion: """
                Prints a JSON report and a Markdown table, and exits 1 (naming why) when a connection \
                failed, the server sent an unexpected error or exited, its open file descriptors after \
                a phase exceed those after the warm-up, or its resident memory grew past --max-rss-growth.
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

        @Option(help: "Resident memory growth allowed after the warm-up, in MiB.")
        var maxRssGrowth = 4.0

        func validate() throws {
            guard (0...100_000).contains(cycles) else { throw ValidationError("--cycles must be 0…100000") }
            guard (1...256).contains(concurrency) else { throw ValidationError("--concurrency must be 1…256") }
            guard minutes.isFinite, (0...60).contains(minutes) else { throw ValidationError("--minutes must be 0…60") }
            guard cycles > 0 || minutes > 0 else {
                throw ValidationError("nothing to do: --cycles and --minutes are 0")
            }
            guard (1...100).contains(clients) else { throw ValidationError("--clients must be 1…100") }
            guard (1...clients).contains(rooms) else { throw ValidationError("--rooms must be 1…clients") }
            guard maxRssGrowth.isFinite, maxRssGrowth >= 0 else {
                throw ValidationError("--max-rss-growth must be ≥ 0")
            }
            if let url = server.url {
                _ = try LoopbackTarget(url: url)
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
            if let url = server.url, let pid = server.serverPID {
                target = try LoopbackTarget(url: url)
                soaked = SoakedServer(pid: pid) { ProcessUsage.isRunning(pid: pid) }
            } else {
                let started = try ServerProcess.forRun(
                    executable: server.server, maxClients: max(concurrency, clients) + 64, maxRooms: 256,
                    publicDirectory: server.public)
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
            let report = SoakReport(
                serverPID: soaked.pid, rssGrowthKiB: Int(maxRssGrowth * 1024), cycles: cycleOutcome,
                replay: replayOutcome, serverRunning: soaked.isRunning())
            print(report.json)
            print("")
            print(report.markdown)
            if !report.passed {
                SoakedServer.progress("FAILED: " + report.problems.joined(separator: "; "))
                throw ExitCode(1)
            }
        }
    }
}
