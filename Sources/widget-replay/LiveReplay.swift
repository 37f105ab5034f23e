import Foundation
import ScrollCore
import WebSocketClient

/// Plays a trace against a running server at its recorded pace (scene time, `at ?? t`):
/// one WebSocket per trace client, each sending what the page would, with `t` as the wire
/// timestamp; a `leave` line closes that client's socket. Sleeping is fine here; the core never does.
struct LiveReplay {
    let url: String
    let room: String
    let scene: String
    let theme: Theme
    /// How long to wait for a final value after the last input.
    var settleTimeout = 5.0

    struct Outcome {
        /// `{"<id>": {"value", "text"}}` from the latest semantics seen.
        var widgets: JSONValue
        /// The layers the first connection holds at the end, at room time `time`, for `--svg`.
        var layers: [(id: UInt16, ops: [UInt8], offset: Point)]
        var time: Double
        var size: Size

        func svg() throws -> String {
            do {
                return SVGRenderer.render(
                    ops: try layers.map { try DisplayListDecoder.decode($0.ops) },
                    ids: layers.map(\.id), offsets: layers.map(\.offset), size: size, time: time)
            } catch {
                throw Failure.io("the server's last frame does not decode: \(error)")
            }
        }
    }

    func play(_ entries: [TraceEntry]) throws -> Outcome {
        var names: [String] = []
        for e in entries where !names.contains(e.client) && e.type != .leave { names.append(e.client) }
        if names.isEmpty { names = [TraceEntry.defaultClient] }
        let connect = { (name: String) in
            try LiveConnection(url: url, room: room, scene: scene, theme: theme, client: name)
        }
        // Open connections by trace client; a `leave` line closes one, a later line reopens it.
        var live = try names.map { (name: $0, connection: try connect($0)) }
        defer { for c in live { c.connection.close() } }
        var connections: [LiveConnection] { live.map(\.connection) }

        let start = ContinuousClock.now
        let origin = entries.first?.sceneTime ?? 0
        for entry in entries {
            try pump(connections, until: start + .milliseconds(Int64((entry.sceneTime - origin).rounded())))
            let open = live.firstIndex { $0.name == entry.client }
            if entry.type == .leave {
                // Live, a client leaves by disconnecting; the server lets go of what it held.
                if let open { live.remove(at: open).connection.close() }
                // What it held goes on moving: wait for it to settle, as after any input.
                for connection in connections { connection.finalSeen = false }
                continue
            }
            if open == nil { live.append((entry.client, try connect(entry.client))) }
            try live.first { $0.name == entry.client }!.connection.send(entry)
            for connection in connections { connection.finalSeen = false }
        }
        if live.isEmpty { live.append((TraceEntry.defaultClient, try connect(TraceEntry.defaultClient))) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(settleTimeout * 1000))
        while ContinuousClock.now < deadline, !connections.allSatisfy(\.finalSeen) {
            try pump(connections, until: min(deadline, .now + .milliseconds(20)))
        }
        if !connections.allSatisfy(\.finalSeen) {
            warn(
                "no final value event within \(JSONValue.number(settleTimeout).serialized) s; printing the latest values"
            )
        }
        // The semantics message follows the events of the same change.
        try pump(connections, until: .now + .milliseconds(200))
        guard let semantics = connections[0].semantics else {
            throw Failure.io("\(url): no semantics message received")
        }
        // Painted as a page would paint them now: tracks and tweens where the room's clock has them.
        let time = connections[0].roomTime
        return Outcome(
            widgets: ReplayResult.widgetsJSON(semantics), layers: connections[0].layers(at: time), time: time,
            size: connections[0].sceneSize)
    }

    /// Reads everything that arrives until `instant`.
    private func pump(_ connections: [LiveConnection], until instant: ContinuousClock.Instant) throws {
        repeat {
            for c in connections { try c.drain(wait: 0) }
            let left = ContinuousClock.now.duration(to: instant)
            guard left > .zero else { return }
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
            try connections[0].drain(wait: min(seconds, 0.002))
        } while ContinuousClock.now < instant
    }
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("widget-replay: warning: \(message)\n".utf8))
}
