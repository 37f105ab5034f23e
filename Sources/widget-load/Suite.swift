import ArgumentParser
import Foundation

extension WidgetLoad {
    /// The whole table of docs/BENCHMARKS.md (`make bench-load`): latency, fan-out, rooms,
    /// memory and idle traffic, each run against a fresh server, in a few minutes.
    struct Suite: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs the benchmark table (a fresh server per run) and prints it.")

        @OptionGroup var server: ServerOptions

        @Option(help: "Seconds counted per fan-out run.")
        var duration = 5.0

        @Option(help: "Latency samples per latency run.")
        var samples = 10_000

        @Option(help: "Fan-out client counts.")
        var fanOut: [Int] = [100, 500, 1000, 2000, 4000]

        @Flag(help: "Also print each run's JSON report to stderr.")
        var verbose = false

        func run() throws {
            var latency: [LoadReport] = []
            for others in [0, 1000] {
                var options = LoadOptions()
                options.clients = 1 + others
                options.script = .drag
                options.samples = samples
                options.duration = 60
                latency.append(try measure(options))
            }
            var fanOutRows: [LoadReport] = []
            for (clients, rooms) in fanOut.map({ ($0, 1) }) + [(2000, 100)] {
                var options = LoadOptions()
                options.clients = clients
                options.rooms = rooms
                options.duration = duration
                fanOutRows.append(try measure(options))
            }
            var idle = LoadOptions()
            idle.clients = 1000
            idle.script = .idle
            let idleRun = try measure(idle)
            print(SuiteTable(latency: latency, fanOut: fanOutRows, idle: idleRun).text)
        }

        private func measure(_ options: LoadOptions) throws -> LoadReport {
            let started = Date()
            let report = try server.run(options)
            if verbose { FileHandle.standardError.write(Data((report.json + "\n").utf8)) }
            let took = String(format: "%.1f", Date().timeIntervalSince(started))
            FileHandle.standardError.write(
                Data(
                    "… \(options.script.rawValue) \(options.clients) clients, \(options.rooms) rooms: \(took) s\n".utf8)
            )
            return report
        }
    }
}
