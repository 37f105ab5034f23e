/// The shared store as a cluster node's switchboard asks it (`NATSClusterLink` on JetStream, a
/// fake in tests). Requests never block the caller: each is answered later, on the service
/// thread, through `Switchboard.clusterAnswered`.
package protocol ClusterLink: AnyObject {
    /// `claim`, `renew`, `write` or `release` (other effects are the switchboard's own).
    func send(_ request: OwnershipEffect)
    /// Relay side: receive the room's `out` subject (answers `.outbound`), or stop.
    func follow(_ room: String)
    func unfollow(_ room: String)
    /// Owner side: receive the room's `in` subject (answers `.inbound`), or stop.
    func serve(_ room: String)
    func unserve(_ room: String)
    /// Publish to the owner of `room`, or to its relays.
    func forward(_ room: String, _ message: RelayInbound)
    func broadcast(_ room: String, _ message: RelayOutbound)
    /// What went wrong so far (`/metrics`).
    var counts: NATSClusterLink.Counts { get }
    /// Why the store cannot be asked now (`/readyz`); nil: it can.
    var unreachable: String? { get }
    /// Where answers go (set by the bridge before the first request); called on any thread.
    var answered: (@Sendable (ClusterAnswer) -> Void)? { get set }
}

/// What a cluster node runs with: its settings and its link to the shared store.
public struct ClusterNode {
    package let config: ClusterConfig
    package let link: any ClusterLink

    package init(config: ClusterConfig, link: any ClusterLink) {
        self.config = config
        self.link = link
    }
}

/// What the store answered, handed back to the service thread.
package enum ClusterAnswer: Equatable, Sendable {
    case claim(String, ClaimAnswer)
    case renew(String, WriteAnswer)
    case write(String, WriteAnswer)
    /// A relay's message for a room owned here.
    case inbound(String, RelayInbound)
    /// The owner's message for a room relayed here.
    case outbound(String, RelayOutbound)
}

/// A cluster node's settings (`--cluster`, `--node`).
package struct ClusterConfig: Sendable, Equatable {
    /// The NATS server, `nats://HOST:PORT` (several separated by commas).
    package var url: String
    /// This node's name: unique in the cluster, written in the leases it holds.
    package var node: String
    /// JetStream replicas of the buckets (1 with one NATS server, 3 with a NATS cluster).
    package var replicas = 1
    package var timing = RoomOwnership.Timing()

    package init(url: String, node: String) {
        self.url = url
        self.node = node
    }
}

extension StoredRoom {
    /// A room's state as the cluster's state bucket keeps it: a version line, its scene, visits
    /// and save time, then the snapshot text. An empty value is a room claimed before anything
    /// was saved.
    package var clusterValue: String { "room 1\n\(scene)\n\(visits)\n\(updated)\n\(snapshot)" }

    package init?(name: String, clusterValue value: String) {
        let parts = value.split(separator: "\n", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "room 1", let visits = Int(parts[2]), let updated = Double(parts[3])
        else { return nil }
        self.init(name: name, scene: String(parts[1]), snapshot: String(parts[4]), updated: updated, visits: visits)
    }
}
