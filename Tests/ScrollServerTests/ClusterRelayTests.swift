import Foundation
import ScrollCore
import Testing

@testable import ScrollServer

/// A room owned by node a, relayed by node b (docs/CLUSTER.md, "Relays"), over a fake bus that
/// carries the relay messages' real bytes: b's client reads what a's own clients read, its input
/// moves the room for everyone, and b takes the room over with its clients still connected.
@Suite struct ClusterRelayTests {
    let bus = FakeBus()
    let a: BoardHarness, linkA: FakeClusterLink
    let b: BoardHarness, linkB: FakeClusterLink

    init() throws {
        (linkA, linkB) = (FakeClusterLink(bus: bus), FakeClusterLink(bus: bus))
        a = try BoardHarness(cluster: ClusterMembership(node: "a", link: linkA))
        b = try BoardHarness(cluster: ClusterMembership(node: "b", link: linkB))
        linkA.board = a.board
        linkB.board = b.board
        bus.links = [linkA, linkB]
        // a owns room r with client 1 in it.
        a.join(1)
        #expect(linkA.take() == [.claim("r")])
        a.board.clusterAnswered(.claim("r", .won(lease: 5, state: 2, snapshot: nil)))
        // b's client 7 asks for r, which a holds: b relays it.
        b.join(7)
        #expect(linkB.take() == [.claim("r")])
        b.board.clusterAnswered(.claim("r", .held(by: "a")))

        bus.deliver()
    }

    /// Everything client `id` of `h` is owed, as (text type or "frame#seq", the bytes).
    private func drain(_ h: BoardHarness, _ id: UInt64) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        while h.board.owesMore(id), out.count < 1000 {
            switch h.board.next(id) {
            case .write(let payload, .binary):
                let frame = try? DecodedFrame(payload.byteArray)
                out.append(("frame#\(frame?.seq ?? 0)", payload.byteArray))
            case .write(let payload, .text):
                let json = try? JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any]
                let type = json?["type"] as? String ?? "?"
                let code = (json?["code"] as? String).map { " " + $0 } ?? ""
                out.append((type + code, payload.byteArray))
            case .close(let code, _):
                out.append(("close \(code)", []))
                return out
            case .nothing:
                return out
            }
        }
        return out
    }

    @Test func aRelayedClientIsWelcomedWithSemanticsPresenceAndTheOwnersFrameBytes() {
        let relayed = drain(b, 7)
        #expect(relayed.map(\.0).prefix(1) == ["welcome"])
        #expect(relayed.map(\.0).contains("semantics"))
        #expect(relayed.map(\.0).contains("presence"))
        let frames = relayed.filter { $0.0.hasPrefix("frame#") }
        #expect(frames.count == 1)
        // The owner's client gets the same frame: the same bytes for the same seq.
        let owned = drain(a, 1).filter { $0.0.hasPrefix("frame#") }
        guard let relayedFrame = frames.last, let ownedFrame = owned.last else {
            Issue.record("no frame: relayed \(relayed.map(\.0)), owned \(owned.map(\.0))")
            return
        }
        #expect(relayedFrame.0 == ownedFrame.0)
        #expect(relayedFrame.1 == ownedFrame.1)
        // Presence on the owner names both: its own client and the relay's (by its id there).
        let presence = String(decoding: relayed.first { $0.0 == "presence" }!.1, as: UTF8.self)
        #expect(presence.contains("\"c1\"") && presence.contains("\"c\(UInt64(1) << 62)\""))
        #expect(a.board.directory.members(of: "r").count == 2)
    }

    @Test func inputOnTheRelayMovesTheRoomForEveryoneAndIsEchoedAfterItsFrame() {
        _ = drain(a, 1)
        _ = drain(b, 7)
        b.send(7, BoardHarness.setValue(80, t: 42))
        bus.deliver()
        // Until the value settles: a ticks, its frames and events reach b.
        a.runTicks(readers: []) { _, _ in }
        bus.deliver()
        let relayed = drain(b, 7)
        let kinds = relayed.map(\.0)
        guard let applied = kinds.firstIndex(of: "applied") else {
            Issue.record("no applied on the relay: \(kinds)")
            return
        }
        #expect(applied > 0 && kinds[applied - 1].hasPrefix("frame#"))
        #expect(a.lastFinalValue(1) == 80)
        let finals = relayed.filter { $0.0 == "events" }.compactMap { (_, bytes) -> Double? in
            let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            return (json?["events"] as? [[String: Any]])?.last { $0["final"] as? Bool == true }?["value"] as? Double
        }
        #expect(finals.last == 80)
    }

    @Test func theRelaysClientGetsTheSemanticsPatchesTheOwnersClientGets() {
        _ = drain(a, 1)
        _ = drain(b, 7)
        var owned: [String] = [], relayed: [String] = []
        func read() {
            owned += drain(a, 1).filter { $0.0 == "semantics" }.map { String(decoding: $0.1, as: UTF8.self) }
            bus.deliver()
            relayed += drain(b, 7).filter { $0.0 == "semantics" }.map { String(decoding: $0.1, as: UTF8.self) }
        }
        b.send(7, BoardHarness.setValue(80, t: 42))
        bus.deliver()
        read()
        while a.fireTick() { read() }
        // From 72.5 kg: the ruler settles on 80, then its readout has rolled there.
        let expected = [
            #"{"type":"semantics","changed":[{"id":"ruler","valueNow":80,"valueText":"80.0 kg"}]}"#,
            #"{"type":"semantics","changed":[{"id":"readout","valueText":"80.0 kg"}]}"#,
        ]
        #expect(owned == expected)
        #expect(relayed == expected)
    }

    @Test func theFirstFingerDownWinsAcrossNodes() {
        _ = drain(a, 1)
        _ = drain(b, 7)
        b.pointer(7, .down, x: 300, t: 1000)
        bus.deliver()
        a.pointer(1, .down, x: 200, t: 1000)
        a.clock.advance(by: 0.016)
        a.pointer(1, .move, x: 100, t: 1016)
        // a's finger came second: the relay's client holds the ruler, a's move does nothing.
        #expect(a.board.directory.room("r")!.scene.holders.map(\.client) == ["c\(UInt64(1) << 62)"])
    }

    @Test func aClientLeavingTheRelayLeavesTheOwnersRoom() {
        b.board.closed(7)
        bus.deliver()
        #expect(a.board.directory.members(of: "r") == [1])
        #expect(linkB.following.isEmpty)
    }

    @Test func aRelayNotHeardFromForFiveSecondsLosesItsClientsOnTheOwner() {
        #expect(a.board.directory.members(of: "r").count == 2)
        a.clock.advance(by: 4.9)
        a.board.sweep()
        #expect(a.board.directory.members(of: "r").count == 2)
        a.clock.advance(by: 0.1)
        a.board.sweep()
        #expect(a.board.directory.members(of: "r") == [1])
    }

    @Test func theRelayKeepsTheOwnerInformedEverySecond() {
        for _ in 1...10 {
            a.clock.advance(by: 1)
            b.clock.advance(by: 1)
            b.board.sweep()
            bus.deliver()
            a.board.sweep()
        }
        #expect(a.board.directory.members(of: "r").count == 2)
    }

    @Test func whenTheOwnerStopsTheRelayTakesTheRoomWithItsClientStillConnected() {
        _ = drain(b, 7)
        a.send(1, BoardHarness.setValue(80, t: 1))
        a.runTicks(readers: [1])
        guard case .write(_, let state, _)? = linkA.take().first else {
            Issue.record("a wrote nothing")
            return
        }
        a.board.clusterAnswered(.write("r", .written(revision: 3)))
        _ = a.board.goAway()
        #expect(linkA.take() == [.release("r", revision: 5)])
        bus.deliver()
        // Told the room was let go, b claims it at its next lease tick, not a second later.
        b.board.leaseTick()
        #expect(linkB.take() == [.claim("r")])
        b.board.clusterAnswered(.claim("r", .won(lease: 8, state: 4, snapshot: state)))
        let after = drain(b, 7).map(\.0)
        #expect(after.first == "welcome")
        #expect(after.contains { $0.hasPrefix("frame#1") })
        // What screen readers and the presence bar show comes again from the new owner.
        #expect(after.contains("semantics") && after.contains("presence"))
        #expect(!after.contains { $0.hasPrefix("close") })
        #expect(b.board.directory.members(of: "r") == [7])
        #expect(
            b.board.directory.room("r")?.scene.snapshot().text == StoredRoom(name: "r", clusterValue: state)?.snapshot)
        #expect(linkB.serving == ["r"] && linkB.following.isEmpty, "\(b.log.text)")
    }

    @Test func aRelayedClientThatChangesThemeGetsTheNewThemesFrameInAnIdleRoom() {
        let first = drain(b, 7).filter { $0.0.hasPrefix("frame#") }
        b.send(7, ClientMessage.preferences(theme: "dark", reducedMotion: nil).encoded())
        bus.deliver()
        let dark = drain(b, 7).filter { $0.0.hasPrefix("frame#") }
        #expect(first.count == 1 && dark.count == 1)
        // The owner's own client in dark reads the very same bytes.
        a.send(1, ClientMessage.preferences(theme: "dark", reducedMotion: nil).encoded())
        let owned = drain(a, 1).filter { $0.0.hasPrefix("frame#") }
        #expect(dark.last?.1 == owned.last?.1 && dark.last?.1 != first.last?.1)
    }

    @Test func aRelayedRoomWithANewOwnerSaysHelloToItAndStartsItsFramesAfresh() throws {
        aVanishesAndBClaims()
        let queued = bus.queue.count
        b.board.clusterAnswered(.claim("r", .held(by: "c")))
        // The hello went again, to whoever owns r now.
        #expect(hellos(since: queued, to: "c") == 1)
        #expect(b.board.clients[7]?.outbound.frameSeq == 0)
    }

    /// A hello on its way is not sent again: the owner would take the second as another client,
    /// and the page would be welcomed twice (BrowserClusterTests saw three welcomes in a failover).
    @Test func anUnansweredHelloGoesAgainASecondAfterTheLastOneNotAtTheNextSweep() throws {
        aVanishesAndBClaims()
        // c owns r now: the hello goes to it at once, 0.25 s before b's once-a-second sweep.
        b.clock.advance(by: 0.75)
        let queued = bus.queue.count
        b.board.clusterAnswered(.claim("r", .held(by: "c")))
        #expect(hellos(since: queued) == 1)
        b.clock.advance(by: 0.25)
        b.board.sweep()
        #expect(hellos(since: queued) == 1, "0.25 s after the hello, c may not have answered yet")
        b.clock.advance(by: 0.5)
        b.board.sweep()
        #expect(hellos(since: queued) == 1)
        // Unanswered 1 s after it went: it may be lost, so it goes again, once.
        b.clock.advance(by: 0.25)
        b.board.sweep()
        #expect(hellos(since: queued) == 2)
        b.clock.advance(by: 0.5)
        b.board.sweep()
        #expect(hellos(since: queued) == 2)
        #expect(hellos(since: queued, to: "c") == 2)
    }

    /// a vanishes (its client gone, off the bus); b's next claim is sent, its answer to come.
    private func aVanishesAndBClaims() {
        _ = drain(b, 7)
        a.board.closed(1)
        bus.links.removeAll { $0 === linkA }
        for _ in 0..<2 {
            b.clock.advance(by: 1)
            b.board.leaseTick()
        }
        #expect(linkB.take() == [.claim("r")])
    }

    /// The relay's hellos put on the bus after its first `queued` messages (to `owner`, if named).
    private func hellos(since queued: Int, to owner: String? = nil) -> Int {
        bus.queue.dropFirst(queued).filter {
            guard $0.inbound, case .hello(_, _, let to, _) = try? RelayInbound(decoding: $0.bytes) else { return false }
            return owner == nil || to == owner
        }.count
    }

    /// A hello b sent to an owner before a (it died) reaches a once a listens: a leaves it, and
    /// welcomes b's client once, for the hello b sends a itself.
    @Test func theOwnerTakesOnlyTheHellosSentToIt() {
        let hello = ClientMessage.hello(.init(room: "r", scene: "ruler")).encoded()
        a.board.clusterAnswered(.inbound("r", .hello(node: "b", client: 9, owner: "z", text: hello)))
        #expect(a.board.directory.members(of: "r").count == 2)
        #expect(linkA.take().isEmpty)
        a.board.clusterAnswered(.inbound("r", .hello(node: "b", client: 9, owner: "a", text: hello)))
        #expect(a.board.directory.members(of: "r").count == 3)
    }

    @Test func aClientArrivingOnceTheRoomIsRelayedIsWelcomedByTheOwner() {
        _ = drain(b, 7)
        b.join(8)
        #expect(linkB.take() == [])
        bus.deliver()
        #expect(drain(b, 8).map(\.0).first == "welcome")
        #expect(a.board.directory.members(of: "r").count == 3)
    }

    @Test func aWelcomeFromTheOwnerAfterTheRelaysSemanticsIsFollowedByTheWholeListAgain() {
        _ = drain(b, 7)
        b.join(8)
        // The relay has the room: its semantics, presence and frame go before the owner's welcome.
        let early = drain(b, 8).map(\.0)
        #expect(early.contains("semantics") && !early.contains("welcome"))
        bus.deliver()
        // The page starts its semantics afresh at a welcome: the whole list follows it, never a patch.
        let late = drain(b, 8)
        #expect(late.first?.0 == "welcome")
        let semantics = late.filter { $0.0 == "semantics" }.map { String(decoding: $0.1, as: UTF8.self) }
        #expect(semantics.count == 1 && semantics.allSatisfy { $0.hasPrefix(#"{"type":"semantics","widgets":"#) })
        // The owner's message again (nothing changed) is no message to the relay's other client.
        #expect(!drain(b, 7).map(\.0).contains("semantics"))
    }
}
