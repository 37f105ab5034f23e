import Foundation
import LoopbackTools
import NATSClient
import Testing

/// Three nats-servers in one cluster: a bucket with three replicas keeps its values and its
/// fencing when the server a client is connected to dies, and the client moves to another.
@Suite struct ReplicatedBucketTests {
    @Test func replicatedBucketOutlivesTheServerInUse() throws {
        let cluster = try NATSCluster()
        let events = Recorder<NATSConnection.Event>()
        let connection = try NATSConnection(urls: cluster.urls, name: "node-a") { events.append($0) }
        defer { connection.close() }
        let config = KeyValueBucket.Config(name: "leases", ttl: 30, replicas: 3)
        let bucket = try KeyValueBucket(connection: connection, config: config)
        let claimed = try bucket.create("room.1", Array("node-a".utf8))

        let used = try #require(cluster.servers.first { $0.url == connection.connectedURL })
        used.kill()
        #expect(events.wait(for: .disconnected, timeout: 5))
        #expect(events.wait(for: .reconnected, timeout: 10))
        let now = try #require(connection.connectedURL)
        #expect(now != used.url && cluster.urls.contains(now))

        // The stream may be electing a new leader meanwhile: transient answers until it has one.
        var renewed: UInt64?
        let answered = try eventually(timeout: 10, interval: 0.1) {
            do {
                renewed = try bucket.update("room.1", Array("node-a".utf8), lastRevision: claimed)
                return true
            } catch let error as NATSError where error.isTransient {
                return false
            }
        }
        #expect(answered)
        let revision = try #require(renewed)
        #expect(revision > claimed)
        #expect(try bucket.get("room.1") == .init(value: Array("node-a".utf8), revision: revision))
        #expect(thrown { try bucket.update("room.1", [0], lastRevision: claimed) }?.isConflict == true)
        #expect(thrown { try bucket.create("room.1", [0]) }?.isConflict == true)
    }
}
