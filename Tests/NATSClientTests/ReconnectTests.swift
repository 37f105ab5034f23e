import Foundation
import LoopbackTools
import NATSClient
import Testing

/// A nats-server that dies and comes back, or comes up late: nats.c reconnects on its own, the
/// calls meanwhile fail transient within their timeout, and JetStream's values survive.
@Suite struct ReconnectTests {
    @Test func reconnectsAfterTheServerIsKilledAndRestarted() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        var keeping = NATSConnection.Options()
        keeping.reconnectBufferBytes = 1 << 20
        let bufferedEvents = Recorder<NATSConnection.Event>()
        let buffered = try NATSConnection(urls: [nats.server.url], name: "buffered", options: keeping) {
            bufferedEvents.append($0)
        }
        defer { buffered.close() }
        // Its own subscription: nats.c restores it before sending what it kept.
        let keptReceived = Recorder<[UInt8]>()
        let keptSubscription = try buffered.subscribe("kept") { keptReceived.append($0.payload) }
        defer { keptSubscription.unsubscribe() }
        let bucket = try nats.bucket(timeout: 0.5)
        let revision = try bucket.put("kept", [42])
        let received = Recorder<[UInt8]>()
        let subscription = try nats.connection.subscribe("after") { received.append($0.payload) }
        defer { subscription.unsubscribe() }
        try nats.connection.flush(timeout: 2)

        nats.server.kill()
        #expect(nats.events.wait(for: .disconnected, timeout: 5))
        #expect(nats.connection.status == .reconnecting)

        // Each call fails transient within its own timeout (at once, as nothing is kept), none hangs.
        let calls: [(String, Double, () throws -> Void)] = [
            ("get", bucket.timeout, { _ = try bucket.get("kept") }),
            ("create", bucket.timeout, { _ = try bucket.create("new", [1]) }),
            ("update", bucket.timeout, { _ = try bucket.update("kept", [1], lastRevision: revision) }),
            ("request", 0.5, { _ = try nats.connection.request("x", [1], timeout: 0.5) }),
            ("flush", 0.5, { try nats.connection.flush(timeout: 0.5) }),
            ("publish", 0.1, { try nats.connection.publish("after", [0]) }),
        ]
        for (name, timeout, call) in calls {
            let start = Date()
            let error = thrown(call)
            let elapsed = Date().timeIntervalSince(start)
            #expect(error?.isTransient == true, "\(name): \(String(describing: error))")
            #expect(elapsed < timeout + 1, "\(name) took \(elapsed) s")
        }
        // A connection with a reconnect buffer keeps a publish meanwhile, and sends it once back.
        #expect(bufferedEvents.wait(for: .disconnected, timeout: 5))
        try buffered.publish("kept", [1])

        try nats.server.restart()
        #expect(nats.events.wait(for: .reconnected, timeout: 10))
        #expect(nats.connection.status == .connected)
        #expect(bufferedEvents.wait(for: .reconnected, timeout: 10))
        #expect(keptReceived.wait(for: [1], timeout: 5))
        #expect(try bucket.get("kept") == .init(value: [42], revision: revision))
        try nats.connection.publish("after", [2])
        #expect(received.wait(timeout: 5) { $0.contains([2]) })
        #expect(received.all == [[2]])
        #expect(nats.events.all == [.disconnected, .reconnected])
    }

    /// A node may start before NATS: `init` returns at once, calls fail transient, and once the
    /// server is up the connection comes (`.connected`) and works.
    @Test func connectsToAServerThatStartsLater() throws {
        let port = try LoopbackPort.free()
        let events = Recorder<NATSConnection.Event>()
        let start = Date()
        let connection = try NATSConnection(urls: ["nats://127.0.0.1:\(port)"], name: "early") { events.append($0) }
        defer { connection.close() }
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(connection.status != .connected)
        let config = KeyValueBucket.Config(name: "early")
        let early = thrown { try KeyValueBucket(connection: connection, config: config, timeout: 0.5) }
        #expect(early?.isTransient == true, "\(String(describing: early))")

        let server = try NATSServerProcess(port: port)
        defer { server.stop() }
        #expect(events.wait(for: .connected, timeout: 5))
        #expect(connection.status == .connected)
        let bucket = try KeyValueBucket(connection: connection, config: config)
        #expect(try bucket.create("k", [1]) > 0)
    }
}
