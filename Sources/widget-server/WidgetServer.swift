import ArgumentParser
import Dispatch
import Foundation
import Logging
import ScrollCore
import ScrollServer

@main
struct WidgetServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget-server",
        abstract: "Serves the scroll widgets page and streams the widgets over WebSocket.",
        version: "widget-server \(ProductVersion.description)")

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(
        help: "Directory of the static page (default: Public/ beside the executable, else in the working directory).")
    var `public`: String?

    @Option(help: "Frame clock while anything moves, in Hz (1…240).")
    var tickRate = 60.0

    @Option(help: "Most rooms at once; at the limit the longest-idle empty room is dropped.")
    var maxRooms = 256

    @Option(
        help: ArgumentHelp(
            "Most WebSocket clients at once.",
            discussion:
                "Capped to what the descriptor limit (ulimit -n, raised toward its hard limit as far as needed) allows after 32 descriptors for files (plus one per room of --max-rooms with --record) and 64 for other sockets; the log says so."
        ))
    var maxClients = 4096

    @Option(
        help: ArgumentHelp(
            "Append each room's input to DIR/<room>.jsonl (a replayable trace).",
            discussion:
                "A file is closed after 30 s without input, or when its room is evicted, and reopened for the room's next input.",
            valueName: "dir"))
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Also let pages from ORIGIN (scheme://host[:port], or * for any) open a WebSocket; repeatable.",
            discussion:
                "Without it only the server's own pages may (a client that sends no Origin is not a browser and may).",
            valueName: "origin"))
    var allowOrigin: [String] = []

    @Option(
        help: ArgumentHelp(
            "Also take WebSocket upgrades addressed to NAME (the Host a proxy or DNS name gives); repeatable.",
            discussion:
                "Without it: localhost, 127.0.0.1, [::1], the address listened on (every interface's for 0.0.0.0) and the hosts of --allow-origin. * takes any Host.",
            valueName: "name"))
    var serverName: [String] = []
    @Option(
        help: ArgumentHelp(
            "SQLite file keeping each room's settled state across restarts, or none.",
            discussion: "A file or directory the server cannot write stops it at start (docs/STATE.md)."))
    var state = "widget-state.sqlite"

    @Option(
        help: ArgumentHelp(
            "Serve /metrics (and /healthz, /readyz) on a listener of its own at this port instead (0 picks a free one).",
            discussion: "The public port then answers 404 for /metrics (docs/OPERATIONS.md).", valueName: "port"))
    var metricsPort: Int?

    @Option(help: ArgumentHelp("Address of the --metrics-port listener (default: 127.0.0.1).", valueName: "host"))
    var metricsHost: String?

    @Option(
        help: ArgumentHelp(
            "Run as a node of a cluster on this NATS server with JetStream (nats://HOST:PORT; several comma-separated).",
            discussion:
                "Rooms are owned by one node at a time and relayed by the others; their state lives in JetStream, not in --state (docs/CLUSTER.md).",
            valueName: "url"))
    var cluster: String?

    @Option(help: ArgumentHelp("This node's name in the cluster (unique; needs --cluster).", valueName: "name"))
    var node: String?

    @Option(
        help: ArgumentHelp(
            "JetStream replicas of the cluster's buckets (3 on a three-server NATS cluster).", valueName: "n"))
    var clusterReplicas = 1

    @Option(help: "Log level.")
    var logLevel: Logger.Level = .info

    @Option(help: "Log lines as text, or as one JSON object each (time, level, message, client, room, code, …).")
    var logFormat: LogFormat = .text

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard (1...240).contains(tickRate) else { throw ValidationError("--tick-rate must be 1…240") }
        guard maxRooms >= 1, maxClients >= 1 else { throw ValidationError("--max-rooms and --max-clients must be ≥ 1") }
        if let problem = allowOrigin.lazy.compactMap(OriginPolicy.problem).first {
            throw ValidationError("--allow-origin: \(problem)")
        }
        if let bad = serverName.first(where: { $0.isEmpty || $0.contains("/") || $0.contains(" ") }) {
            throw ValidationError("--server-name: \"\(bad)\" is not a host name or address")
        }
        guard !state.isEmpty else { throw ValidationError("--state needs a file path, or none") }
        if let metricsPort {
            guard (0...65535).contains(metricsPort) else { throw ValidationError("--metrics-port must be 0…65535") }
            guard metricsPort == 0 || metricsPort != port else {
                throw ValidationError("--metrics-port must differ from --port")
            }
        } else if metricsHost != nil {
            throw ValidationError("--metrics-host needs --metrics-port")
        }
        if cluster != nil {
            guard let node, !node.isEmpty, node.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw ValidationError("--cluster needs --node NAME (printable, no spaces), unique in the cluster")
            }
            guard (1...5).contains(clusterReplicas) else { throw ValidationError("--cluster-replicas must be 1…5") }
        } else if node != nil {
            throw ValidationError("--node needs --cluster")
        }
    }

    func run() throws {
        switch logFormat {
        case .text: LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        case .json: LoggingSystem.bootstrap { JSONLogHandler.standardError(label: $0) }
        }
        var logger = Logger(label: "widget-server")
        logger.logLevel = logLevel

        let publicDir = try publicDirectory()
        var config = ServerConfig(publicDirectory: publicDir)
        config.host = host
        config.port = port
        config.tickRate = tickRate
        config.recordDirectory = record
        config.maxRooms = maxRooms
        config.allowedOrigins = allowOrigin
        config.extraServerNames = serverName
        config.metricsPort = metricsPort
        if let metricsHost { config.metricsHost = metricsHost }
        let (budget, hard) = try DescriptorBudget.applied(
            maxClients: maxClients, maxRooms: maxRooms, recording: record != nil)
        config.maxClients = budget.maxClients
        config.socketCeiling = budget.socketCeiling
        let limits: Logger.Metadata = [
            "limit": "\(budget.limit)", "hard limit": "\(hard)", "for files": "\(budget.reserve)",
            "max-clients": "\(budget.maxClients)",
        ]
        if budget.maxClients < maxClients {
            logger.warning(
                "--max-clients capped to what the descriptor limit allows",
                metadata: limits.merging(["asked": "\(maxClients)"]) { a, _ in a })
        } else {
            logger.info("descriptor limit", metadata: limits)
        }

        // An unusable file is set aside, one that cannot be made means no storage; one that cannot
        // be written stops the start (every change would be lost).
        // A cluster node keeps rooms' state in JetStream instead (docs/CLUSTER.md).
        let clusterNode = try cluster.map {
            try ClusterStart.connect(url: $0, node: node!, replicas: clusterReplicas, logger: logger)
        }
        let store =
            state == "none" || clusterNode != nil ? nil : try SQLiteRoomStore.openForServer(path: state, logger: logger)
        let server = try WebSocketServer(config: config, logger: logger, store: store, cluster: clusterNode?.node)
        let bound = try server.start()
        func shown(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
        // Tests wait for these exact lines (the metrics one first, so it is there once listening is).
        // Unbuffered, so a pipe sees them at once.
        if let metrics = server.metricsPort {
            let url = "http://\(shown(config.metricsHost)):\(metrics)\(OperationsPaths.metricsPath)"
            FileHandle.standardOutput.write(Data("metrics on \(url)\n".utf8))
        }
        FileHandle.standardOutput.write(Data("listening on http://\(shown(host)):\(bound)/\n".utf8))

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        // The handlers hold the server. Cancelling a source releases its handler before it runs the
        // cancel handler, so once both have run the server can go before the process exits (kept to
        // exit, its weak-reference side table shows as a leak under LeakSanitizer).
        let cancelled = DispatchGroup()
        let sources = [SIGINT, SIGTERM].map { sig in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { server.stop() }
            cancelled.enter()
            source.setCancelHandler { cancelled.leave() }
            source.resume()
            return source
        }
        server.run()
        clusterNode?.link.close()
        for source in sources { source.cancel() }
        cancelled.wait()
    }

    private func publicDirectory() throws -> String {
        if let explicit = self.public {
            guard PublicDirectory.hasIndex(explicit) else {
                throw ValidationError("no index.html in \(explicit) (--public)")
            }
            return explicit
        }
        do {
            return try PublicDirectory.locate(
                executable: PublicDirectory.currentExecutable,
                workingDirectory: FileManager.default.currentDirectoryPath)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

enum LogFormat: String, ExpressibleByArgument, CaseIterable { case text, json }
