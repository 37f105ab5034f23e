/// One run's shape: how many connections, where, and what the driving connections do.
struct LoadOptions {
    enum Script: String, CaseIterable {
        /// Each room's driver drags the demo's carousel back and forth at 60 moves a second and never
        /// lifts: every client gets a frame a move, the whole run.
        case sweep
        /// Each room's driver flings the demo's carousel every 1.5 s: each glide goes as one track
        /// (docs/PROTOCOL.md, "Tracks"), so a client gets a few messages a fling.
        case fling
        /// The same on the demo's picker (its clicks sent ahead with the track).
        case pickerFling = "picker-fling"
        /// The same on the demo's ruler.
        case rulerFling = "ruler-fling"
        /// Room 0's driver holds the ruler and times input-to-frame against echo.
        case drag
        /// Nobody moves: resident memory after connecting, and traffic while idle.
        case idle
        /// Against libwebsockets' mirror (`MirrorServer`), not a widget-server: client 0 sends
        /// `messageBytes`-byte messages at `messageRate` a second, the server sends each to all.
        case mirror
    }

    var clients = 100
    var rooms = 1
    var scene = "demo"
    var script = Script.sweep
    /// Seconds counted (drag: at most this long, fewer once `samples` are in).
    var duration = 3.0
    /// Latency pairs wanted (drag).
    var samples = 10_000
    /// Seconds the script runs before counting starts.
    var warmup = 0.5
    /// Handshakes in flight at once (the listen backlog is finite).
    var connectConcurrency = 128
    /// Longest wait for all connections to join.
    var connectTimeout = 60.0
    /// The mirror script's messages: size and rate (a fling's median frame and frame rate).
    var messageBytes = 256
    var messageRate = 60.0

    /// Rooms are `<roomPrefix>-<n>`.
    var roomPrefix = "load"
    func room(of index: Int) -> String { "\(roomPrefix)-\(index % rooms)" }
    /// The first connection of each room drives it.
    func isDriver(_ index: Int) -> Bool { index < rooms }
}
