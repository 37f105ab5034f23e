#if canImport(Glibc)
    import Glibc
#endif

/// How the process's descriptors (RLIMIT_NOFILE) are shared, so that accepting connections never
/// takes the last ones (README, `--max-clients`): a reserve for what is not a connection, the rest
/// for sockets, and clients as many as leaves room for sockets that are not clients. At start the
/// soft limit is raised as far as that needs, never past the hard one (lws sizes its tables by the
/// limit, 16 bytes a descriptor, so it is not raised further than the clients need).
public struct DescriptorBudget: Equatable, Sendable {
    /// Descriptors that are not connections: stdio, the state file with its -wal and -shm, a static
    /// file being read, lws's cancel pipe, the runtime's (epoll, eventfd, signalfd, timerfd,
    /// /dev/urandom), with room to spare. An idle server holds 14.
    public static let fixedReserve = 32
    /// Sockets that are not clients: the listener, pages' HTTP requests, upgrades under way.
    public static let otherSockets = 64

    /// The soft limit to run with.
    public let limit: Int
    /// Descriptors kept for what is not a socket: `fixedReserve`, plus one trace file per room
    /// with `--record`.
    public let reserve: Int
    /// `--max-clients`, capped to what the limit allows.
    public let maxClients: Int

    /// A connection accepted on a descriptor numbered at or above this is closed at once: the
    /// reserve stays free for files (descriptors are handed out lowest first).
    public var socketCeiling: Int { limit - reserve }

    public static func plan(
        soft: Int, hard: Int, maxClients: Int, maxRooms: Int, recording: Bool
    ) throws(ServerStartError) -> DescriptorBudget {
        let reserve = fixedReserve + (recording ? maxRooms : 0)
        let limit = max(soft, min(hard, maxClients + otherSockets + reserve))
        let clients = min(maxClients, limit - reserve - otherSockets)
        guard clients >= 1 else {
            let why = recording ? " (with --record, one per room of --max-rooms)" : ""
            throw ServerStartError(
                description:
                    "the descriptor limit (ulimit -n) is \(limit): the server needs at least \(reserve + otherSockets + 1), \(reserve) of them for files\(why); raise the limit"
            )
        }
        return DescriptorBudget(limit: limit, reserve: reserve, maxClients: clients)
    }

    /// `plan` for this process's limits, with its soft limit raised to the plan's.
    public static func applied(
        maxClients: Int, maxRooms: Int, recording: Bool
    ) throws(ServerStartError) -> (budget: DescriptorBudget, hard: Int) {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else {
            throw ServerStartError(description: "cannot read the descriptor limit: \(String(cString: strerror(errno)))")
        }
        let soft = Int(clamping: limits.rlim_cur), hard = Int(clamping: limits.rlim_max)
        let budget = try plan(soft: soft, hard: hard, maxClients: maxClients, maxRooms: maxRooms, recording: recording)
        if budget.limit > soft {
            limits.rlim_cur = rlim_t(budget.limit)
            guard setrlimit(resource, &limits) == 0 else {
                throw ServerStartError(
                    description:
                        "cannot raise the descriptor limit to \(budget.limit): \(String(cString: strerror(errno)))")
            }
        }
        return (budget, hard)
    }

    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
