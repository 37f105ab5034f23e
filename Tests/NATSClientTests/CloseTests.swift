import Foundation
import LoopbackTools
import NATSClient
import Testing

/// `close()`: safe twice, final, and no callback after it has returned.
@Suite struct CloseTests {
    /// Closing reports the connection lost, then `.closed`, the last event, before `close()`
    /// returns, once however often it is called; the connection's calls then fail for good.
    @Test func closeTwiceIsFineAndFinal() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let subscription = try nats.connection.subscribe("s") { _ in }
        nats.connection.close()
        #expect(nats.events.all == [.disconnected, .closed])
        #expect(subscription.isComplete)
        nats.connection.close()
        #expect(nats.events.all == [.disconnected, .closed])
        #expect(nats.connection.status == .closed)

        let publish = thrown { try nats.connection.publish("s", [1]) }
        #expect(publish != nil && publish?.isTransient == false, "\(String(describing: publish))")
        #expect(thrown { try nats.connection.subscribe("s") { _ in } }?.isTransient == false)
        subscription.unsubscribe()  // after close: nothing
    }

    /// Closing while nats.c is reconnecting to a dead server returns promptly, `.closed` last.
    @Test func closeWhileReconnecting() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        nats.server.kill()
        #expect(nats.events.wait(for: .disconnected, timeout: 5))
        let start = Date()
        nats.connection.close()
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(nats.events.all.last == .closed)
    }

    /// `close()` waits for a handler that is running: it returns only after the handler has.
    @Test func closeWaitsForARunningHandler() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let entered = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let steps = Recorder<String>()
        let subscription = try nats.connection.subscribe("slow") { _ in
            entered.signal()
            gate.wait()
            steps.append("handler returned")
        }
        defer { subscription.unsubscribe() }
        try nats.connection.flush(timeout: 2)
        try nats.connection.publish("slow", [1])
        #expect(entered.wait(timeout: .now() + 5) == .success)

        let connection = nats.connection
        Thread.detachNewThread {
            connection.close()
            steps.append("close returned")
        }
        // nats.c has closed the connection: close() is now waiting for the handler.
        #expect(eventually(timeout: 5) { nats.connection.status == .closed })
        #expect(steps.all.isEmpty)
        gate.signal()
        #expect(steps.wait(timeout: 5) { $0.count == 2 })
        #expect(steps.all == ["handler returned", "close returned"])
    }

    /// A handler may unsubscribe its own subscription, or close its connection, without waiting
    /// for itself.
    @Test func closingFromInsideAHandler() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let connection = nats.connection
        let holder = Recorder<NATSSubscription>()
        let calls = Recorder<[UInt8]>()
        let own = try connection.subscribe("own") { message in
            calls.append(message.payload)
            holder.all.first?.unsubscribe()
        }
        holder.append(own)
        let closer = try connection.subscribe("close") { _ in connection.close() }
        try connection.flush(timeout: 2)
        try connection.publish("own", [1])
        #expect(eventually(timeout: 5) { own.isComplete })
        try connection.publish("own", [2])
        try connection.publish("close", [])
        #expect(nats.events.wait(for: .closed, timeout: 5))
        #expect(calls.all == [[1]])
        #expect(eventually(timeout: 5) { closer.isComplete })
    }

    /// A handler that holds its own subscription, or an event handler its connection, lets go of
    /// it once ended: neither is kept alive by the other after `unsubscribe()` or `close()`.
    @Test func handlersLetGoOnceEnded() throws {
        let server = try NATSServerProcess()
        defer { server.stop() }
        weak var weakConnection: NATSConnection?
        weak var weakSubscription: NATSSubscription?
        do {
            let connectionHolder = Recorder<NATSConnection>(), subscriptionHolder = Recorder<NATSSubscription>()
            let connection = try NATSConnection(urls: [server.url], name: "held") { _ in _ = connectionHolder.all }
            connectionHolder.append(connection)
            let subscription = try connection.subscribe("s") { _ in _ = subscriptionHolder.all }
            subscriptionHolder.append(subscription)
            weakConnection = connection
            weakSubscription = subscription
            subscription.unsubscribe()
            connection.close()
        }
        #expect(weakSubscription == nil)
        #expect(weakConnection == nil)
    }
}
