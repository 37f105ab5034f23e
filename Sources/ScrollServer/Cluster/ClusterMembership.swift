/// A switchboard's part in a cluster (docs/CLUSTER.md): its leases, the store it asks, and the
/// clients waiting for a room being claimed. Service thread only.
package final class ClusterMembership {
    package private(set) var ownership: RoomOwnership
    let link: any ClusterLink
    /// Clients whose hello named a room not here yet, in arrival order, with the scene they named.
    var waiting: [String: [(client: UInt64, scene: String?)]] = [:]
    /// When the lease clock is set to call next (nil: not set).
    var leaseTickAt: Double?
    /// Rooms this node owned and lost (a lease run out, a write refused), and state writes.
    var roomsLost = 0
    var stateWrites = 0, stateWriteFailures = 0
    /// Rooms relayed here from their owners.
    var relayed: [String: RelayedRoom] = [:]
    /// Owner side: the switchboard's ids for relays' clients, and when each relay was last heard
    /// from in each room.
    var remoteIDs: [RemoteClient: UInt64] = [:]
    /// From 2^62 up: far above any socket's id, and `c` plus at most 20 digits as a name.
    var nextRemoteID: UInt64 = 1 << 62
    var heard: [String: [String: Double]] = [:]
    /// Owner side: what each room's relays have been sent (versions, frame numbers by theme).
    var sentToRelays: [String: RelaysSent] = [:]

    /// A relay's client, as the owner knows it.
    struct RemoteClient: Hashable {
        let node: String
        let client: UInt64
        let room: String
    }

    struct RelaysSent {
        var semantics = 0
        var presence = 0
        var frames: [String: UInt32] = [:]
    }

    /// A relay not heard from for this long died: its clients leave the room.
    static let relaySilence = 5.0

    package init(node: String, link: any ClusterLink, timing: RoomOwnership.Timing = .init()) {
        ownership = RoomOwnership(node: node, timing: timing)
        self.link = link
    }

    /// Runs one step of the ownership machine.
    func step(_ body: (inout RoomOwnership) -> [OwnershipEffect]) -> [OwnershipEffect] { body(&ownership) }
}
