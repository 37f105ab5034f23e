import ScrollCore

/// One connection's state and counters (the load run keeps them by index).
struct Peer {
    enum State { case waiting, connecting, open, closed }

    var state = State.waiting
    var joined = false
    var tally = FrameTally()
    /// Every byte received since connecting (idle traffic is measured on this).
    var bytesTotal = 0
    var outgoing: [Outgoing] = []
    var error: String?

    /// The message being received.
    var message = MessageHead()

    enum Outgoing {
        case hello(room: String, scene: String)
        case pointer(PointerPhase, x: Double, y: Double)
        /// The latency probe's move: its x and t are taken when it is written.
        case probeMove
        case ping
        /// The mirror script's message: its seq is taken when it is written.
        case mirror
    }
}
