import LoopbackTools
import NATSClient

/// A nats-server of the test's own and a connection to it, events recorded.
struct LocalNATS {
    let server: NATSServerProcess
    let connection: NATSConnection
    let events: Recorder<NATSConnection.Event>

    init(name: String = "test", options: NATSConnection.Options = NATSConnection.Options()) throws {
        server = try NATSServerProcess()
        let events = Recorder<NATSConnection.Event>()
        connection = try NATSConnection(urls: [server.url], name: name, options: options) { events.append($0) }
        self.events = events
    }

    /// Closes the connection and stops the server (and keeps both alive until then).
    func stop() {
        connection.close()
        server.stop()
    }

    /// A bucket named for the test on this server.
    func bucket(_ name: String = "test", ttl: Double = 0, timeout: Double = 2) throws -> KeyValueBucket {
        try KeyValueBucket(connection: connection, config: .init(name: name, ttl: ttl), timeout: timeout)
    }
}
