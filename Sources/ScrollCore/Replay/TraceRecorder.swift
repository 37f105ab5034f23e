/// Turns a room's accepted wire messages into trace lines (one recorder per room).
///
/// Timeline: each client's own clock (the page's `event.timeStamp`, ms) is shifted by a
/// constant, fixed at that client's first recorded message, so that this message lands at
/// the room time it arrived. Later samples keep the client's own spacing, which is what
/// the velocity tracker needs. Clients' clocks are independent, so network jitter can put
/// one client's sample slightly before another's last line: such a time is raised to the
/// last written time, keeping the file in non-decreasing `t` as the format requires.
/// The offset is a whole number of microseconds, so lines stay short; the client's own
/// timestamps are never rounded — their spacing is what replay's velocity comes from, and
/// rounding it can move a fling's rest onto the neighbouring tick.
public struct TraceRecorder: Sendable {
    private var offsets: [String: Double] = [:]
    private var lastTime = 0.0
    /// Pointers each client holds down, with their last position (for `leave`).
    private var pressed: [PointerKey: Point] = [:]

    public init() {}

    /// The lines to append for `message` from `client`, accepted at `roomTime` (s).
    public mutating func record(_ message: ClientMessage, client: String, roomTime: Double) -> [TraceEntry] {
        guard let first = Self.firstTime(of: message) else { return [] }
        let offset: Double
        if let known = offsets[client] {
            offset = known
        } else {
            offset = ((roomTime * 1000 - first) * 1000).rounded() / 1000
            offsets[client] = offset
        }
        var entries = TraceEntry.entries(for: message, client: client, t: offset)
        for i in entries.indices {
            entries[i].t = max(entries[i].t, lastTime)
            lastTime = entries[i].t
            track(entries[i])
        }
        return entries
    }

    /// A client left the room: the scene cancels its pointers, so the trace does too.
    public mutating func leave(client: String, roomTime: Double) -> [TraceEntry] {
        let held = pressed.filter { $0.key.client == client }.sorted { $0.key.pointer < $1.key.pointer }
        offsets[client] = nil
        lastTime = max(lastTime, (roomTime * 1_000_000).rounded() / 1000)
        return held.map { key, at in
            pressed[key] = nil
            return .pointer(.cancel, t: lastTime, x: at.x, y: at.y, pointer: key.pointer, client: client)
        }
    }

    private mutating func track(_ e: TraceEntry) {
        let key = PointerKey(client: e.client, pointer: e.pointer)
        switch e.type {
        case .down: pressed[key] = Point(x: e.x, y: e.y)
        case .move: if pressed[key] != nil { pressed[key] = Point(x: e.x, y: e.y) }
        case .up, .cancel: pressed[key] = nil
        case .wheel, .key: break
        }
    }

    /// The client timestamp of the message's first input (nil: nothing to record).
    private static func firstTime(of message: ClientMessage) -> Double? {
        switch message {
        case .pointer(let p): return p.samples.first?.t
        case .wheel(let w): return w.t
        case .key(_, _, let t): return t
        case .hello, .ping: return nil
        }
    }
}
