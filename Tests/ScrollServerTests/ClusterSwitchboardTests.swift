import ScrollCore
import Testing

@testable import ScrollServer

/// The store and the subjects as a cluster node's switchboard sees them: what was asked is kept
/// for the test to answer; what is published goes, encoded, through the `FakeBus` it is on.
final class FakeClusterLink: ClusterLink {
    private(set) var sent: [OwnershipEffect] = []
    var answered: (@Sendable (ClusterAnswer) -> Void)?
    var counts = NATSClusterLink.Counts()
    var unreachable: String?
    /// The switchboard, handed what the bus delivers.
    weak var board: Switchboard?
    let bus: FakeBus
    private(set) var following: Set<String> = []
    private(set) var serving: Set<String> = []

    init(bus: FakeBus = FakeBus()) { self.bus = bus }

    func send(_ request: OwnershipEffect) { sent.append(request) }
    func follow(_ room: String) { following.insert(room) }
    func unfollow(_ room: String) { following.remove(room) }
    func serve(_ room: String) { serving.insert(room) }
    func unserve(_ room: String) { serving.remove(room) }
    func forward(_ room: String, _ message: RelayInbound) { bus.queue.append((room, true, message.encoded)) }
    func broadcast(_ room: String, _ message: RelayOutbound) { bus.queue.append((room, false, message.encoded)) }

    /// What was sent to the store since the last call.
    func take() -> [OwnershipEffect] {
        defer { sent = [] }
        return sent
    }
}

/// Core NATS between fake links: published messages wait until `deliver()` hands each to the
/// links that subscribe to its subject, in order, decoded from its bytes.
final class FakeBus {
    /// Flat tuples, not an enum with array payloads: LeakSanitizer cannot follow a pointer that
    /// carries an enum's tag bits, and would report the bytes as leaked.
    var queue: [(room: String, inbound: Bool, bytes: [UInt8])] = []
    /// Held weakly: each link holds its bus.
    private var held: [() -> FakeClusterLink?] = []
    var links: [FakeClusterLink] {
        get { held.compactMap { $0() } }
        set { held = newValue.map { link in { [weak link] in link } } }
    }

    /// Delivers everything published (and whatever that publishes in turn); returns how many.
    @discardableResult
    func deliver() -> Int {
        var count = 0
        while !queue.isEmpty {
            let (room, inbound, bytes) = queue.removeFirst()
            count += 1
            for link in links {
                if inbound, link.serving.contains(room) {
                    link.board?.clusterAnswered(.inbound(room, try! RelayInbound(decoding: bytes)))
                } else if !inbound, link.following.contains(room) {
                    link.board?.clusterAnswered(.outbound(room, try! RelayOutbound(decoding: bytes)))
                }
            }
        }
        return count
    }
}

/// A cluster node's switchboard on a fake clock (docs/CLUSTER.md): hellos wait for the claim,
/// the room's state moves between nodes through the store's state, a lost lease closes 1012.
@Suite struct ClusterSwitchboardTests {
    private func node(_ name: String, bus: FakeBus = FakeBus()) throws -> (BoardHarness, FakeClusterLink) {
        let link = FakeClusterLink(bus: bus)
        let h = try BoardHarness(cluster: ClusterMembership(node: name, link: link))
        link.board = h.board
        bus.links.append(link)
        return (h, link)
    }

    /// A node that owns "r" (fresh) with client 1 in it.
    private func owner(bus: FakeBus = FakeBus()) throws -> (BoardHarness, FakeClusterLink) {
        let (h, link) = try node("a", bus: bus)
        h.join(1)
        #expect(h.read(1) == [])
        #expect(link.take() == [.claim("r")])
        h.board.clusterAnswered(.claim("r", .won(lease: 5, state: 2, snapshot: nil)))
        #expect(h.read(1).prefix(1) == ["welcome"])
        return (h, link)
    }

    @Test func aHelloWaitsForTheClaimThenIsWelcomedAndServed() throws {
        let (h, link) = try owner()
        #expect(h.board.directory.members(of: "r") == [1])
        h.send(1, BoardHarness.setValue(80, t: 1))
        #expect(h.lastFinalValue(1) == nil)
        h.runTicks(readers: [])
        #expect(h.lastFinalValue(1) == 80)
        // Input from a second client of the node goes straight in: the room is ours.
        h.join(2)
        #expect(h.read(2).first == "welcome")
        #expect(link.take().filter { if case .claim = $0 { true } else { false } } == [])
    }

    @Test func settledStateIsWrittenAtTheRevisionAndRestoredByTheNextOwner() throws {
        let (a, linkA) = try owner()
        a.send(1, BoardHarness.setValue(80, t: 1))
        a.runTicks(readers: [1])
        let writes = linkA.take().compactMap { effect -> (String, UInt64)? in
            if case let .write(_, state, revision) = effect { return (state, revision) }
            return nil
        }
        #expect(writes.count == 1)
        guard let (state, revision) = writes.first else { return }
        #expect(revision == 2)
        #expect(StoredRoom(name: "r", clusterValue: state)?.scene == "ruler")

        // Node b claims it after a's lease is gone: its client sees 80.0 kg in the welcome.
        let (b, linkB) = try node("b")
        b.join(7)
        #expect(linkB.take() == [.claim("r")])
        b.board.clusterAnswered(.claim("r", .won(lease: 9, state: 4, snapshot: state)))
        let welcome = b.board.next(7)
        guard case .write(let payload, .text) = welcome else {
            Issue.record("no welcome: \(welcome)")
            return
        }
        #expect(payload.text.contains("\"type\":\"welcome\""))
        #expect(
            b.board.directory.room("r")?.scene.snapshot().text == StoredRoom(name: "r", clusterValue: state)?.snapshot)
    }

    @Test func leasesAreRenewedEverySecondAndARoomNotRenewedForThreeSecondsClosesItsClients1012() throws {
        let (h, link) = try owner()
        #expect(h.wire.leaseTicksRequested == [1.0])
        h.clock.advance(by: 1.0)
        h.board.leaseTick()
        #expect(link.take() == [.renew("r", revision: 5)])
        h.board.clusterAnswered(.renew("r", .written(revision: 6)))
        h.clock.advance(by: 1.0)
        h.board.leaseTick()
        #expect(link.take() == [.renew("r", revision: 6)])
        // The store stops answering: the lease sent at 1.0 holds until 4.0.
        h.clock.advance(by: 1.999)
        h.board.leaseTick()
        #expect(link.take() == [])
        #expect(h.read(1).last != "close 1012")
        h.clock.advance(by: 0.001)
        h.board.leaseTick()
        #expect(h.read(1).suffix(2) == ["fatal room_moved", "close 1012"])
        #expect(h.board.directory.room("r") == nil)
        let metrics = h.board.metricsText()
        #expect(metrics.contains("widget_cluster_rooms_lost_total 1"))
        #expect(metrics.contains("widget_cluster_rooms{role=\"owned\"} 0"))
        #expect(metrics.contains("widget_closes_sent_total{code=\"1012\"} 1"))
    }

    @Test func aRefusedWriteClosesTheRoomsClients() throws {
        let (h, link) = try owner()
        h.send(1, BoardHarness.setValue(80, t: 1))
        h.runTicks(readers: [1])
        #expect(link.take().count == 1)
        h.board.clusterAnswered(.write("r", .refused))
        #expect(h.read(1).suffix(2) == ["fatal room_moved", "close 1012"])
    }

    @Test func aRoomHeldByASilentOwnerIsClaimedEverySecondAndItsClientIsToldAfterTenSeconds() throws {
        let (h, link) = try node("b")
        h.join(3)
        #expect(link.take() == [.claim("r")])
        h.board.clusterAnswered(.claim("r", .held(by: "a")))
        #expect(link.following == ["r"])
        for _ in 1...9 {
            h.clock.advance(by: 1)
            h.board.leaseTick()
            #expect(link.take() == [.claim("r")])
            h.board.clusterAnswered(.claim("r", .held(by: "a")))
            h.board.sweep()
            #expect(h.read(3) == [])
        }
        h.clock.advance(by: 1)
        h.board.sweep()
        #expect(h.read(3) == ["fatal room_unavailable", "close 1013"])
    }

    @Test func aClaimWonWithinTheWaitWelcomesEveryWaitingClientInOrder() throws {
        let (h, link) = try node("b")
        h.join(3)
        h.join(4)
        #expect(link.take() == [.claim("r")])
        h.board.clusterAnswered(.claim("r", .held(by: "a")))
        h.clock.advance(by: 1)
        h.board.leaseTick()
        h.board.clusterAnswered(.claim("r", .won(lease: 1, state: 1, snapshot: nil)))
        #expect(h.read(3).first == "welcome")
        #expect(h.read(4).first == "welcome")
        #expect(h.board.directory.members(of: "r") == [3, 4])
    }

    @Test func aStoreOutOfReachRefusesTheWaitingClients1013() throws {
        let (h, link) = try node("a")
        h.join(1)
        #expect(link.take() == [.claim("r")])
        h.board.clusterAnswered(.claim("r", .failed))
        #expect(h.read(1) == ["fatal room_unavailable", "close 1013"])
    }

    @Test func aStopLetsTheLeaseGoOnceTheLastWriteCameBack() throws {
        let (h, link) = try owner()
        h.send(1, BoardHarness.setValue(80, t: 1))
        h.runTicks(readers: [1])
        guard case .write(_, _, revision: 2)? = link.take().first else {
            Issue.record("the settled 80 kg was not written at revision 2")
            return
        }
        // Stopped while that write is on its way: the lease waits for it.
        _ = h.board.goAway()
        #expect(link.take() == [])
        #expect(!h.board.leasesReleased)
        h.board.clusterAnswered(.write("r", .written(revision: 3)))
        #expect(link.take() == [.release("r", revision: 5)])
        #expect(h.board.leasesReleased)
    }

    @Test func aStopWithNothingUnwrittenLetsTheLeaseGoAtOnce() throws {
        let (h, link) = try owner()
        _ = h.board.goAway()
        #expect(link.take() == [.release("r", revision: 5)])
        #expect(h.board.leasesReleased)
        #expect(h.read(1).last == "close 1001")
    }
}
