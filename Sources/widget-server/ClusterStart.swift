import ArgumentParser
import Foundation
import Logging
import NATSClient
import ScrollServer

/// `--cluster`: the NATS connection and the buckets, before the port is opened.
enum ClusterStart {
    /// How long a node waits at start for NATS to answer (it can serve no room before).
    static let wait = 5.0

    static func connect(url: String, node: String, replicas: Int, logger: Logger) throws -> (
        node: ClusterNode, link: NATSClusterLink
    ) {
        var config = ClusterConfig(url: url, node: node)
        config.replicas = replicas
        let urls = url.split(separator: ",").map { String($0) }
        let events = logger
        // Relay messages go out as they are made: input on a relay crosses NATS twice.
        var options = NATSConnection.Options()
        options.sendAsap = true
        let connection = try NATSConnection(urls: urls, name: "widget-server \(node)", options: options) { event in
            switch event {
            case .disconnected: events.warning("disconnected from NATS; reconnecting")
            case .reconnected: events.info("reconnected to NATS")
            case .connected: events.info("connected to NATS")
            case .closed: break
            case .error(let error): events.warning("NATS", metadata: ["reason": "\(error)"])
            }
        }
        let deadline = Date().addingTimeInterval(wait)
        while true {
            do {
                let link = try NATSClusterLink(connection: connection, config: config, logger: logger)
                logger.info("cluster node", metadata: ["node": "\(node)", "nats": "\(url)", "replicas": "\(replicas)"])
                return (ClusterNode(config: config, link: link), link)
            } catch  where error.isTransient && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.25)
            } catch {
                connection.close()
                throw ValidationError("--cluster \(url): \(error)")
            }
        }
    }
}
