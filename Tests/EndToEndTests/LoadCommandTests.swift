import Foundation
import LoopbackTools
import Testing

/// `widget-load` against a test server (and `peer` against libwebsockets' test server too): a tiny
/// bounded run whose report is well-formed and in which every client received frames. No figure
/// is asserted: this keeps the tool working.
@Suite struct LoadCommandTests {
    private func run(_ arguments: [String]) throws -> (report: [String: Any]?, output: String) {
        let binary = Products.path("widget-load")
        let child = try ChildProcess(executable: binary, arguments: arguments)
        let exited = child.waitForExit(timeout: 60)
        // Output is complete once both streams have closed.
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        #expect(exited, "widget-load did not stop by itself")
        let text = child.output.text
        guard let start = text.firstIndex(of: "{"), let end = text.lastIndex(of: "}") else { return (nil, text) }
        let json = try? JSONSerialization.jsonObject(with: Data(text[start...end].utf8)) as? [String: Any]
        return (json, text)
    }

    @Test("a sweep run (the default) with 5 clients: every client joins and receives ~60 frames a second")
    func sweepRun() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let (report, output) = try run([
            "--url", server.wsURL, "--server-pid", "\(server.pid)", "--clients", "5", "--duration", "1",
        ])
        let r = try #require(report, "\(output)")
        #expect(r["connected"] as? Int == 5)
        #expect(r["clientsWithFrames"] as? Int == 5)
        #expect((r["errors"] as? [String: Any])?.isEmpty == true, "\(output)")
        #expect(r["script"] as? String == "sweep", "\(output)")
        let fps = try #require(r["framesPerClientPerSecond"] as? [String: Any])
        // A frame a move, 60 moves a second (a smoke check: the machine decides the exact figure).
        #expect((fps["min"] as? Double ?? 0) > 10, "\(output)")
        #expect(r["serverCPU"] is Double && r["generatorCPU"] is Double)
        #expect((r["serverMemory"] as? [String: Any])?["afterKiB"] is Int)
    }

    @Test("a ruler-fling run: the ruler's glides reach every client, messages of every kind counted")
    func rulerFlingRun() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let (report, output) = try run([
            "--url", server.wsURL, "--clients", "3", "--script", "ruler-fling", "--duration", "2",
        ])
        let r = try #require(report, "\(output)")
        #expect(r["script"] as? String == "ruler-fling" && r["clientsWithFrames"] as? Int == 3, "\(output)")
        let messages = try #require(r["messagesPerClientPerSecond"] as? [String: Any])
        let frames = try #require(r["framesPerClientPerSecond"] as? [String: Any])
        // Events and semantics come besides the frames.
        #expect((messages["min"] as? Double ?? 0) > (frames["max"] as? Double ?? .infinity), "\(output)")
    }

    @Test("a drag run times input-to-frame and echo on the same connection")
    func dragRun() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let (report, output) = try run([
            "--url", server.wsURL, "--clients", "2", "--script", "drag", "--samples", "20", "--duration", "10",
        ])
        let latency = try #require(report?["latency"] as? [String: Any], "\(output)")
        #expect(latency["samples"] as? Int ?? 0 >= 20)
        #expect((latency["inputToFrameMs"] as? [String: Any])?["median"] is Double)
        #expect((latency["echoMs"] as? [String: Any])?["median"] is Double)
    }

    /// Our fan-out and libwebsockets' mirror, 20 clients each: each server on the core it was pinned to.
    @Test("peer: every client in one mirror instance, deliveries and CPU counted")
    func peerRun() throws {
        let (report, output) = try run(["peer", "--clients", "20", "--duration", "1", "--json"])
        let rows = try #require(report?["rows"] as? [[String: Any]], "\(output)")
        let row = try #require(rows.count == 1 ? rows[0] : nil, "\(output)")
        #expect(row["clients"] as? Int == 20)
        // One instance, named as asked: every client joined the same one.
        #expect(row["peerInstances"] as? [String] == ["peer20"], "\(output)")
        for side in ["ours", "peer"] {
            let s = try #require(row[side] as? [String: Any], "\(output)")
            #expect(s["connected"] as? Int == 20, "\(side): \(output)")
            // Every client received what client 0's room (peer: client 0) sent.
            #expect(s["clientsReceiving"] as? Int == 20, "\(side): \(output)")
            #expect((s["deliveriesPerSecond"] as? Double ?? 0) > 0, "\(side)")
            for key in ["deliveredMedian", "deliveredMin"] {
                let share = try #require(s[key] as? Double, "\(side) \(key)")
                #expect((0...1).contains(share), "\(side) \(key) \(share)")
            }
            #expect(s["serverCPU"] is Double && s["generatorCPU"] is Double, "\(side)")
            #expect((s["serverMicrosecondsPerDelivery"] as? Double ?? -1) >= 0, "\(side)")
            #expect(s["serverCPUs"] as? String == "0" && s["generatorCPUs"] as? String == "1", "\(side)")
        }
        // The peer's messages are our frames' size, sent at our room's rate.
        let ours = row["ours"] as? [String: Any], peer = row["peer"] as? [String: Any]
        let bytes = try #require(ours?["messageBytes"] as? Double)
        #expect(peer?["messageBytes"] as? Double == bytes.rounded())
        #expect((peer?["sentPerSecond"] as? Double ?? 0) > 0)
        // A ratio, unless the peer's CPU in this short run was under /proc's 10 ms tick.
        let peerCost = try #require(peer?["serverMicrosecondsPerDelivery"] as? Double)
        #expect(row["ratio"] is Double || (peerCost == 0 && row["ratio"] == nil), "\(output)")
    }

    @Test("a host other than the loopback address is refused, naming why")
    func refusesOtherHosts() throws {
        let (_, output) = try run(["--url", "ws://example.com:8080/", "--clients", "1"])
        #expect(output.contains("only loads the loopback address"), "\(output)")
    }
}
