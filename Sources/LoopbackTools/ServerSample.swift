/// One reading of a soaked server: what a soak's figures and memory verdict are made of.
public struct ServerSample: Encodable, Sendable {
    /// "start", "warm-up", "before" (after the warm-up), "during", "after" (all clients gone, settled).
    public var label: String
    /// Seconds since the phase began.
    public var seconds: Double
    public var fds: Int?
    public var rssKiB: Int?
    /// The highest resident memory seen since the phase began (polled, and the kernel's VmHWM),
    /// where the phase reads peaks.
    public var peakKiB: Int?
    /// The generator's connections open then (each is one of the server's fds).
    public var connections: Int
    /// Connect/disconnect cycles started by then (phase 1).
    public var cycles: Int?
    /// What was going on (phase 3's "during" readings).
    public var moment: String?

    public init(
        label: String, seconds: Double, fds: Int? = nil, rssKiB: Int? = nil, peakKiB: Int? = nil,
        connections: Int = 0, cycles: Int? = nil, moment: String? = nil
    ) {
        self.label = label
        self.seconds = seconds
        self.fds = fds
        self.rssKiB = rssKiB
        self.peakKiB = peakKiB
        self.connections = connections
        self.cycles = cycles
        self.moment = moment
    }
}
