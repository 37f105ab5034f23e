import Foundation

/// Three (or more) `nats-server`s on loopback routed into one cluster with clustered JetStream,
/// for tests of replicated buckets and of a client moving to another server. Each server is a
/// `NATSServerProcess` of its own: killed and restarted alone, on its ports and store.
public final class NATSCluster {
    public let servers: [NATSServerProcess]
    /// The servers' client URLs, for a connection that may use any of them.
    public var urls: [String] { servers.map(\.url) }

    /// Starts `size` servers, and returns once JetStream has a metadata leader that every server knows.
    public init(size: Int = 3, timeout: Double = NATSServerProcess.startupTimeout) throws {
        var attempt = 1
        while true {
            // Route ports picked now may be taken before a server binds them: then again with others.
            let routePorts = try (0..<size).map { _ in try LoopbackPort.free() }
            let routes = routePorts.map { "nats://127.0.0.1:\($0)" }.joined(separator: ",")
            do {
                servers = try routePorts.enumerated().map { index, port in
                    try NATSServerProcess(arguments: [
                        "-n", "n\(index + 1)", "--cluster_name", "loopback", "--cluster", "nats://127.0.0.1:\(port)",
                        "--routes", routes,
                    ])
                }
                break
            } catch LaunchError.serverDidNotStart(_, let output)
                where attempt < 3 && output.contains("address already in use")
            {
                attempt += 1
            }
        }
        let leader = { (line: String) in
            line.contains("JetStream cluster new metadata leader")
                || line.contains("Self is new JetStream cluster metadata leader")
        }
        for server in servers where !server.hasLine(timeout: timeout, where: leader) {
            throw LaunchError.serverDidNotStart(
                reason: "no JetStream metadata leader within \(timeout)s",
                output: servers.map(\.output).joined(separator: "\n"))
        }
    }
}
