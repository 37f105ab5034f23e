import Foundation
import NATSClient
import Testing

/// Core NATS through a real nats-server on loopback: subjects, payloads, request and reply.
@Suite struct PublishSubscribeTests {
    /// Bytes 0 and 255, an empty payload, and 64 KiB of every byte value arrive intact, in order.
    @Test func binaryPayloadsRoundTrip() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let received = Recorder<NATSMessage>()
        let subscription = try nats.connection.subscribe("frames.room1") { received.append($0) }
        defer { subscription.unsubscribe() }
        try nats.connection.flush(timeout: 2)

        let large = (0..<65536).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 8)) }  // every value, 256 times
        let payloads: [[UInt8]] = [[0, 255, 0, 255], [], large]
        try nats.connection.publish("frames.room1", payloads[0])
        try nats.connection.publish("frames.room1", payloads[1])
        try large.withUnsafeBytes { bytes in try nats.connection.publish("frames.room1", bytes: bytes) }

        #expect(received.wait(timeout: 5) { $0.count == 3 })
        #expect(received.all.map(\.payload) == payloads)
        #expect(received.all.allSatisfy { $0.subject == "frames.room1" && $0.reply == nil })
    }

    /// A wildcard subscription sees each subject below it, named as published.
    @Test func wildcardSubscriptionNamesTheSubject() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let received = Recorder<String>()
        let subscription = try nats.connection.subscribe("rooms.*.frames") { received.append($0.subject) }
        defer { subscription.unsubscribe() }
        try nats.connection.flush(timeout: 2)
        // The subject that does not match goes first: delivered, it would come before the others.
        try nats.connection.publish("rooms.c.input", [1])
        for room in ["a", "b"] { try nats.connection.publish("rooms.\(room).frames", [1]) }
        #expect(received.wait(timeout: 5) { $0.count >= 2 })
        #expect(received.all == ["rooms.a.frames", "rooms.b.frames"])
    }

    /// After `unsubscribe()` returns, the handler is not called again: a second subscription on
    /// the same subject, which gets each message after the first would have, is the witness.
    @Test func unsubscribedHandlerIsNotCalledAgain() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let first = Recorder<[UInt8]>(), witness = Recorder<[UInt8]>()
        let subscription = try nats.connection.subscribe("s") { first.append($0.payload) }
        let witnessing = try nats.connection.subscribe("s") { witness.append($0.payload) }
        defer { witnessing.unsubscribe() }
        try nats.connection.flush(timeout: 2)
        try nats.connection.publish("s", [1])
        #expect(first.wait(for: [1], timeout: 5))
        subscription.unsubscribe()
        #expect(subscription.isComplete)
        subscription.unsubscribe()  // again: nothing
        try nats.connection.publish("s", [2])
        #expect(witness.wait(for: [2], timeout: 5))
        #expect(first.all == [[1]])
    }

    /// A request gets the responder's reply; with no responder it fails transient at once, and
    /// with a silent one, transient at its timeout.
    @Test func requestReply() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let connection = nats.connection
        let responder = try connection.subscribe("echo.reversed") { message in
            guard let reply = message.reply else { return }
            try? connection.publish(reply, message.payload.reversed())
        }
        let silent = try connection.subscribe("silent") { _ in }
        defer {
            responder.unsubscribe()
            silent.unsubscribe()
        }
        try connection.flush(timeout: 2)

        let answer = try connection.request("echo.reversed", [0, 1, 2, 255], timeout: 2)
        #expect(answer.payload == [255, 2, 1, 0])

        var start = Date()
        let noResponders = thrown { try connection.request("nobody.home", [1], timeout: 2) }
        #expect(noResponders?.isTransient == true, "\(String(describing: noResponders))")
        #expect(Date().timeIntervalSince(start) < 1)

        start = Date()
        let timedOut = thrown { try connection.request("silent", [1], timeout: 0.3) }
        #expect(timedOut?.isTransient == true, "\(String(describing: timedOut))")
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.29 && waited < 2, "waited \(waited) s")  // nats.c's clock counts whole milliseconds
    }
}
