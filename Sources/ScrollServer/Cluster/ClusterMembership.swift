/// A switchboard's part in a cluster (docs/CLUSTER.md): its leases, the store it asks, and the
/// clients waiting for a room being claimed. Service thread only.
package final class ClusterMembership {
    package private(set) var ownership: RoomOwnership
    let link: any ClusterLink
    /// Clients whose hello named a room not here yet, in arrival order, with the scene they named.
    var waiting: [String: [(client: UInt64, scene: String?)]] = [:]
    /// When the lease clock is set to call next (nil: not set).
    var leaseTickAt: Double?

    package init(node: String, link: any ClusterLink, timing: RoomOwnership.Timing = .init()) {
        ownership = RoomOwnership(node: node, timing: timing)
        self.link = link
    }

    /// Runs one step of the ownership machine.
    func step(_ body: (inout RoomOwnership) -> [OwnershipEffect]) -> [OwnershipEffect] { body(&ownership) }
}
