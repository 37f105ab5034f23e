/// Turns a room's accepted wire messages into trace lines (one recorder per room).
///
/// Each line gets two times (docs/TRACES.md):
/// - `at`, when the scene applied it: the room's scene time when the message arrived, in
///   ms rounded to whole microseconds, shared by all lines of one message. The server's
///   clock is monotonic; `at` is still never put below the last one written, so the file
///   is in order by construction.
/// - `t`, the client's own timestamp (the page's `event.timeStamp`, ms) shifted by a
///   constant per client, fixed at that client's first recorded message so that this
///   message's `t` is its arrival. Later samples keep the client's own spacing, which is
///   what the velocity tracker reads. The offset is a whole number of microseconds, so
///   lines stay short; the client's own timestamps are never rounded — their spacing is
///   replay's velocity, and rounding it can move a fling's rest onto the neighbouring tick.
///   Clients' clocks are independent, so `t` may go back from one client's line to
///   another's; the format orders lines by `at`, not `t`.
///
/// Only a broken or hostile client can make `t` unwritable; then it is held, keeping the
/// file valid: a clock that goes back is held at that client's last `t`, and `t` stays
/// within 0…`TraceParser.maxTime`. (Live, the tracker restarts on a clock that goes back;
/// replay of that one drag can then differ.)
public struct TraceRecorder: Sendable {
    private var offsets: [String: Double] = [:]
    /// Each client's last written `t`. Kept after it leaves, so a name that comes back
    /// (the server never reuses one) resumes after it rather than going back.
    private var lastT: [String: Double] = [:]
    private var lastAt = 0.0
    /// Pointers each client holds down (for `leave`).
    private var pressed: Set<PointerKey> = []

    public init() {}

    /// The lines to append for `message` from `client`, accepted at `roomTime` (s).
    public mutating func record(_ message: ClientMessage, client: String, roomTime: Double) -> [TraceEntry] {
        guard let first = message.inputTimes?.first else { return [] }
        let at = arrival(roomTime)
        let offset: Double
        if let known = offsets[client] {
            offset = known
        } else {
            var anchored = ((roomTime * 1000 - first) * 1000).rounded() / 1000
            if let last = lastT[client], first + anchored < last {
                anchored = ((last - first) * 1000).rounded(.up) / 1000
            }
            offset = anchored
            offsets[client] = offset
        }
        var entries = TraceEntry.entries(for: message, client: client, t: offset, at: at)
        for i in entries.indices {
            // max(floor, t): a NaN would give the floor, never a NaN.
            entries[i].t = min(max(lastT[client] ?? 0, entries[i].t), TraceParser.maxTime)
            lastT[client] = entries[i].t
            track(entries[i])
        }
        return entries
    }

    /// A client left the room at `roomTime`: if it held a pointer down, one `leave` line
    /// (`at` the departure, `t` the client's last), on which the scene lets go of them as it
    /// did live. A client that held nothing leaves nothing to replay.
    public mutating func leave(client: String, roomTime: Double) -> [TraceEntry] {
        let held = pressed.filter { $0.client == client }
        offsets[client] = nil
        guard !held.isEmpty else { return [] }
        pressed.subtract(held)
        let at = arrival(roomTime)
        return [.leave(t: lastT[client] ?? at, at: at, client: client)]
    }

    /// `roomTime` (s) as ms rounded to whole µs, never before the last one written.
    private mutating func arrival(_ roomTime: Double) -> Double {
        lastAt = min(max(lastAt, (roomTime * 1_000_000).rounded() / 1000), TraceParser.maxTime)
        return lastAt
    }

    private mutating func track(_ e: TraceEntry) {
        let key = PointerKey(client: e.client, pointer: e.pointer)
        switch e.type {
        case .down: pressed.insert(key)
        case .up, .cancel: pressed.remove(key)
        case .move, .wheel, .key, .action, .leave: break
        }
    }
}
