import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// A cluster of real `widget-server` nodes on a real nats-server with JetStream, all on loopback
/// (docs/CLUSTER.md): relays, failover after kill -9 and SIGSTOP, racing claims, a restarted
/// node, a restarted NATS server. Every wait has a deadline; each test stops its processes.
@Suite(.serialized) struct ClusterTests {
    /// One nats-server and `names.count` nodes on it.
    private struct Cluster {
        let nats: NATSServerProcess
        var nodes: [String: ServerProcess] = [:]

        init(_ names: [String]) throws {
            nats = try NATSServerProcess()
            for name in names { nodes[name] = try Self.node(name, nats: nats) }
        }

        static func node(_ name: String, nats: NATSServerProcess) throws -> ServerProcess {
            try ServerProcess(arguments: ["--cluster", nats.url, "--node", name, "--log-level", "debug"])
        }

        subscript(_ name: String) -> ServerProcess { nodes[name]! }

        /// Whether `node` logged that it owns (or relays) `room` within `timeout`.
        func logs(_ node: String, _ what: String, room: String, revision: Int? = nil, timeout: Double = 5) -> Bool {
            self[node].hasLine(timeout: timeout) { line in
                line.contains(what) && line.contains("room=\(room)")
                    && (revision.map { line.contains("revision=\($0)") } ?? true)
            }
        }
    }

    private static func setValue(_ kg: Double) -> ClientMessage {
        .action(.init(widget: "ruler", action: "setValue", args: ["value": .number(kg)], t: 0))
    }

    @Test func aRoomOwnedByOneNodeIsTheSameRoomOnEveryNode() throws {
        let cluster = try Cluster(["a", "b", "c"])
        let a = try WireClient(cluster["a"], room: "shared", scene: "ruler")
        #expect(cluster.logs("a", "owns room", room: "shared"))
        let b = try WireClient(cluster["b"], room: "shared", scene: "ruler")
        let c = try WireClient(cluster["c"], room: "shared", scene: "ruler")
        #expect(cluster.logs("b", "relays room", room: "shared"))
        #expect(cluster.logs("c", "relays room", room: "shared"))
        // Presence lists all three, wherever each is connected.
        for client in [a, b, c] {
            try client.receive(until: "presence of 3") { client.presenceCounts.last == 3 }
        }
        let ids = Set(c.presences.last!.map(\.id))
        #expect(ids.count == 3 && ids.contains(a.id) && ids.contains(b.id) && ids.contains(c.id))

        // A drag on c (a relay) moves the ruler for everyone; all settle on the same tick.
        try c.drag(from: 300, by: -100)
        let settled = try [a, b, c].map { try $0.finalValue() }
        #expect(settled[0] == settled[1] && settled[1] == settled[2])
        #expect(settled[0] != 72.5)
        for client in [a, b, c] { try client.receiveUntilIdle() }
        // The same frame for every seq all three hold: the same layers, and the same bytes when
        // each got it the same way (delta or standing alone).
        var compared = 0
        for seq in a.frames.seqs where b.frames.entry(seq: seq) != nil && c.frames.entry(seq: seq) != nil {
            let (x, y, z) = (a.frames.entry(seq: seq)!, b.frames.entry(seq: seq)!, c.frames.entry(seq: seq)!)
            #expect(x.layers == y.layers && y.layers == z.layers, "seq \(seq)")
            if x.isDelta == y.isDelta && y.isDelta == z.isDelta { #expect(x.bytes == y.bytes && y.bytes == z.bytes) }
            compared += 1
        }
        // The drag's frames (its settle a track, the readout's rolls tracks too: a few more).
        #expect(compared >= 2)
    }

    @Test func theFirstFingerDownWinsAcrossNodes() throws {
        let cluster = try Cluster(["a", "b"])
        let a = try WireClient(cluster["a"], room: "finger", scene: "ruler")
        let b = try WireClient(cluster["b"], room: "finger", scene: "ruler")
        try b.receive(until: "presence of 2") { b.presenceCounts.last == 2 }
        // b's finger lands first and holds the ruler; a's drag meanwhile moves nothing.
        try b.pointer(.down, x: 300, t: 1000)
        try b.pointer(.move, x: 290, t: 1016)
        _ = try a.waitFor("b's drag") { m in
            (m["events"] as? [[String: Any]])?.contains { $0["type"] as? String == "value" } == true
        }
        try a.drag(from: 300, by: -200, t0: 2000)
        try b.pointer(.up, x: 290, t: 1200)
        // 10 pt a tick of 0.1 kg (WIDGETS.md): b's 10 pt move, not a's 200 pt one (2 kg more).
        let value = try b.finalValue()
        #expect(value > 72.0 && value < 73.0, "settled at \(value)")
    }

    @Test func killingTheOwnerBringsTheRoomBackOnARelayWithinFiveSecondsWithItsValue() throws {
        let cluster = try Cluster(["a", "b"])
        let a = try WireClient(cluster["a"], room: "failover", scene: "ruler")
        try a.send(Self.setValue(80))
        #expect(try a.finalValue() == 80)
        let b = try WireClient(cluster["b"], room: "failover", scene: "ruler")
        try b.waitForSemantics("ruler", value: 80)
        // The settled value is written (the claim wrote revision 1, 80 revision 2); then the owner dies.
        #expect(cluster.logs("a", "state written", room: "failover", revision: 2))
        let killed = Date()
        cluster["a"].kill()
        _ = try b.waitFor("a welcome from b itself", timeout: 5) { $0["type"] as? String == "welcome" }
        let back = Date().timeIntervalSince(killed)
        #expect(back < 5, "live again after \(back) s")
        try b.waitForSemantics("ruler", value: 80)
        #expect(cluster.logs("b", "owns room", room: "failover"))
        // b still serves it: input moves it.
        try b.send(Self.setValue(81))
        #expect(try b.finalValue() == 81)
    }

    @Test func aPausedOwnerPastItsLeaseLetsGoWhenItWakesAndOneOwnerRemains() throws {
        let cluster = try Cluster(["a", "b"])
        let a = try WireClient(cluster["a"], room: "pause", scene: "ruler")
        let b = try WireClient(cluster["b"], room: "pause", scene: "ruler")
        try b.receive(until: "presence of 2") { b.presenceCounts.last == 2 }
        cluster["a"].send(signal: SIGSTOP)
        // b takes the room once a's lease (3 s) has run out, its client still connected.
        _ = try b.waitFor("b's own welcome", timeout: 6) { $0["type"] as? String == "welcome" }
        try b.send(Self.setValue(77))
        #expect(try b.finalValue() == 77)
        cluster["a"].send(signal: SIGCONT)
        // a finds its lease gone: its client is told the room moved, and closed 1012.
        _ = try a.waitForError("room_moved")
        #expect(cluster.logs("a", "lost room", room: "pause"))
        // One owner: a newcomer on a is relayed from b and sees b's value.
        let late = try WireClient(cluster["a"], room: "pause", scene: "ruler")
        try late.waitForSemantics("ruler", value: 77)
        #expect(cluster.logs("a", "relays room", room: "pause"))
    }

    @Test func twoNodesClaimingOneRoomAtOnceMakeOneOwner() throws {
        let cluster = try Cluster(["a", "b"])
        let x = try WireClient(cluster["a"], hello: false)
        let y = try WireClient(cluster["b"], hello: false)
        try x.send(.hello(.init(room: "race", scene: "ruler")))
        try y.send(.hello(.init(room: "race", scene: "ruler")))
        for client in [x, y] { _ = try client.waitFor("welcome") { $0["type"] as? String == "welcome" } }
        let aOwns = cluster.logs("a", "owns room", room: "race", timeout: 1)
        let bOwns = cluster.logs("b", "owns room", room: "race", timeout: 1)
        #expect(aOwns != bOwns, "a owns: \(aOwns), b owns: \(bOwns)")
        try x.receive(until: "presence of 2") { x.presenceCounts.last == 2 }
    }

    @Test func aRestartedNodeDoesNotTakeARoomWhoseLeaseIsLive() throws {
        var cluster = try Cluster(["a", "b"])
        let a = try WireClient(cluster["a"], room: "held", scene: "ruler")
        cluster["b"].stop()
        cluster.nodes["b"] = try Cluster.node("b", nats: cluster.nats)
        let b = try WireClient(cluster["b"], room: "held", scene: "ruler")
        #expect(cluster.logs("b", "relays room", room: "held"))
        try a.receive(until: "presence of 2") { a.presenceCounts.last == 2 }
        #expect(!cluster["b"].output.contains("owns room"))
        _ = b
    }

    @Test func aRestartedNATSServerLosesNoSettledValue() throws {
        let cluster = try Cluster(["a", "b"])
        let a = try WireClient(cluster["a"], room: "outage", scene: "ruler")
        try a.send(Self.setValue(90))
        #expect(try a.finalValue() == 90)
        // 90 is in the store before NATS goes (the outage would otherwise take its write with it,
        // and 91 would be revision 2: a busy machine showed that).
        #expect(cluster.logs("a", "state written", room: "outage", revision: 2))
        cluster.nats.stop()
        // Not ready while NATS is away (a load balancer's health check sends newcomers elsewhere).
        var readiness: RawHTTP.Reply?
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            readiness = try? RawHTTP.request(cluster["a"], "/readyz")
            if readiness?.status == 503 { break }
            usleep(20_000)
        }
        #expect(readiness?.status == 503)
        #expect(readiness?.text.hasPrefix("not ready: NATS is not connected") == true, "\(readiness?.text ?? "")")
        try cluster.nats.restart()
        #expect(cluster["a"].hasLine(timeout: 10) { $0.contains("reconnected to NATS") })
        #expect(try RawHTTP.request(cluster["a"], "/readyz").status == 200)
        // The room carries on, and its value is in the store: a node that takes it finds it.
        try a.send(Self.setValue(91))
        #expect(try a.finalValue() == 91)
        let b = try WireClient(cluster["b"], room: "outage", scene: "ruler")
        // Through the relay: the owner's answer crosses NATS twice (slow under the sanitizers).
        try b.waitForSemantics("ruler", value: 91, timeout: 15)
        // Settled values are written as they settle; what a kill -9 may lose is a write on its
        // way (docs/CLUSTER.md). The claim wrote revision 1, 90 revision 2, 91 revision 3.
        #expect(cluster.logs("a", "state written", room: "outage", revision: 3))
        cluster["a"].kill()
        _ = try b.waitFor("b's own welcome", timeout: 6) { $0["type"] as? String == "welcome" }
        try b.waitForSemantics("ruler", value: 91, timeout: 15)
    }

    @Test func aSessionRecordedInClusterModeReplaysOfflineToTheSameResult() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let nats = try NATSServerProcess()
        let owner = try ServerProcess(arguments: ["--cluster", nats.url, "--node", "a", "--record", dir.path])
        let relay = try Cluster.node("b", nats: nats)
        let a = try WireClient(owner, room: "taped", scene: "ruler")
        let b = try WireClient(relay, room: "taped", scene: "ruler")
        // Input on both nodes: the owner records the relay's client's too.
        try b.drag(from: 300, by: -120)
        let first = try a.finalValue()
        #expect(try b.finalValue() == first)
        try a.drag(from: 200, by: 35, t0: 3000)
        let second = try b.finalValue()
        #expect(try a.finalValue() == second)
        #expect(first != 72.5 && second != first)

        let finals = { (events: [[String: Any]]) in
            events.filter { $0["widget"] as? String == "ruler" && $0["final"] as? Bool == true }
                .compactMap { $0["value"] as? Double }
        }
        let live = finals(
            a.messages.filter { $0["type"] as? String == "events" }.flatMap { $0["events"] as? [[String: Any]] ?? [] })
        owner.stop()  // closes the trace file
        let child = try ChildProcess(
            executable: Products.path("widget-replay"), arguments: [dir.appendingPathComponent("taped.jsonl").path])
        #expect(child.waitForExit(timeout: 30))
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        let output = try #require(
            try JSONSerialization.jsonObject(with: Data(child.output.text.utf8)) as? [String: Any])
        let replayed = finals(try #require(output["events"] as? [[String: Any]]))
        #expect(replayed == live, "replayed \(replayed), live \(live)")
        #expect(live.last == second)
    }

    @Test func aNodeWithoutNATSStopsWithTheReason() throws {
        let port = try LoopbackPort.free()
        do {
            _ = try ServerProcess(arguments: ["--cluster", "nats://127.0.0.1:\(port)", "--node", "alone"])
            Issue.record("a node started with no NATS to talk to")
        } catch LaunchError.serverDidNotStart(let reason, let output) {
            #expect(reason.contains("exited"), "\(reason)")
            #expect(output.contains("--cluster nats://127.0.0.1:\(port)") && output.contains("NATS"), "\(output)")
        }
    }
}
