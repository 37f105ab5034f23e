import ArgumentParser
import Foundation
import LoopbackTools
import ScrollCore

@main
struct WidgetLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget-load",
        abstract: "Loads a widget-server on this machine with many WebSocket clients and measures it.",
        discussion: """
            Every run targets the loopback address only, is bounded in clients and time, and stops by \
            itself. Without --url it starts its own widget-server (beside this executable) for the run.
            """,
        version: "widget-load \(ProductVersion.description)",
        subcommands: [Run.self, Suite.self, Soak.self, ClusterBench.self, PeerBench.self], defaultSubcommand: Run.self)
}

/// Where the server comes from: one started for the run, or one already running.
struct ServerOptions: ParsableArguments {
    @Option(help: "A running server's WebSocket URL (ws://127.0.0.1:PORT/ or ws://[::1]:PORT/).")
    var url: String?

    @Option(help: "The running server's pid, to read its CPU time and memory (with --url).")
    var serverPID: Int32?

    @Option(help: "The widget-server to start (default: the one beside this executable).")
    var server: String?

    @Option(help: "--public for the started server.")
    var `public`: String?

    /// Runs `options` against the URL, or against a server started for this run alone.
    func run(_ options: LoadOptions) throws -> LoadReport {
        if let url {
            return try LoadRun(options: options, target: try LoopbackTarget(url: url), serverPID: serverPID).run()
        }
        let child = try ServerProcess.forRun(
            executable: server, maxClients: options.clients + 16, maxRooms: max(256, options.rooms + 1),
            publicDirectory: `public`)
        defer { child.stop() }
        let target = LoopbackTarget(address: "127.0.0.1", port: child.port)
        return try LoadRun(options: options, target: target, serverPID: child.pid).run()
    }
}

extension WidgetLoad {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One run; prints its report as JSON.")

        @OptionGroup var server: ServerOptions

        @Option(help: "Connections (1…20000).")
        var clients = 100

        @Option(help: "Rooms the connections are spread over; each room's first connection drives it.")
        var rooms = 1

        @Option(help: "The scene of the rooms.")
        var scene = "demo"

        @Option(
            help:
                "sweep: the carousel dragged back and forth without a lift; fling: continuous flings of the carousel; picker-fling: of the picker; ruler-fling: of the ruler; drag: input-to-frame against echo; idle: memory and idle traffic."
        )
        var script = "sweep"

        @Option(help: "Seconds counted (1…120).")
        var duration = 3.0

        @Option(help: "Latency samples wanted (drag); the run ends early once they are in.")
        var samples = 10_000

        func validate() throws {
            guard (1...20_000).contains(clients) else { throw ValidationError("--clients must be 1…20000") }
            guard (1...clients).contains(rooms) else { throw ValidationError("--rooms must be 1…clients") }
            guard (0.1...120).contains(duration) else { throw ValidationError("--duration must be 0.1…120 s") }
            // The mirror script is `peer`'s: it talks to libwebsockets' test server, not ours.
            guard let script = LoadOptions.Script(rawValue: script), script != .mirror else {
                throw ValidationError("--script must be sweep, fling, picker-fling, ruler-fling, drag or idle")
            }
            if let url = server.url { _ = try LoopbackTarget(url: url) }
        }

        func run() throws {
            var options = LoadOptions()
            options.clients = clients
            options.rooms = rooms
            options.scene = scene
            options.script = LoadOptions.Script(rawValue: script)!
            options.duration = duration
            options.samples = samples
            print(try server.run(options).json)
        }
    }
}
