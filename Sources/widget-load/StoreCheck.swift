import Foundation
import LoopbackTools
import ScrollCore
import ScrollServer
import WebSocketClient

/// After the phases, when the soak started the server with a state file (`--state scratch`):
/// the rooms the phases changed must have gone through the store. Each is read at rest by a
/// client of its own (the room's `semantics`), the server is stopped (SIGTERM: it stores every
/// room) and started again on the same file, and it must have restored rooms before anyone
/// joined and show each room as it was. Fails when the server wrote nothing, a write failed, it
/// did not exit 0, restored nothing, or a room came back different.
struct StoreCheck {
    struct Outcome: Encodable {
        /// The rooms read before the restart and after it.
        var rooms: [String]
        /// `widget_state_writes_total` and `widget_state_write_failures_total` before the restart.
        var writes = 0
        var writeFailures = 0
        /// Rooms the restarted server had, live and dormant, before anyone joined.
        var restored = 0
        /// Rooms that read the same after the restart.
        var same = 0
        var seconds = 0.0
        var failures: [String] = []
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    let rooms: [String]
    /// A room that sends nothing for this long is at rest; one that does not come to rest within
    /// `timeout` fails the check.
    var quiet = 1.0
    var timeout = 20.0

    /// Reads the rooms on `server`, stops it, starts another with `restart` on the same state
    /// file, reads them there and stops that one too.
    func run(server: ServerProcess, restart: () throws -> ServerProcess) -> Outcome {
        let started = MonotonicClock.now()
        var outcome = Outcome(rooms: rooms)
        do {
            let written = try metrics(server)
            outcome.writes = Int(written["widget_state_writes_total"] ?? 0)
            outcome.writeFailures = Int(written["widget_state_write_failures_total"] ?? 0)
            if outcome.writes == 0 { outcome.failures.append("the server wrote nothing to its state file") }
            if outcome.writeFailures > 0 {
                outcome.failures.append("\(outcome.writeFailures) writes to the state file failed")
            }
            let before = try rooms.map { try semantics(of: $0, on: server) }
            server.stop()
            if server.exit != .code(0) {
                outcome.failures.append("the server ended \(server.exit.map { "\($0)" } ?? "?") on SIGTERM, not exit 0")
            }
            let again = try restart()
            defer { again.stop() }
            let restored = try metrics(again)
            outcome.restored = Int(
                (restored["widget_rooms{state=\"active\"}"] ?? 0) + (restored["widget_rooms{state=\"dormant\"}"] ?? 0))
            if outcome.restored == 0 {
                outcome.failures.append("the restarted server restored no room from the state file")
            }
            for (room, was) in zip(rooms, before) {
                let now = try semantics(of: room, on: again)
                if now == was {
                    outcome.same += 1
                } else {
                    outcome.failures.append("room \(room) came back different after the restart (its semantics)")
                }
            }
        } catch {
            outcome.failures.append("\(error)")
        }
        outcome.seconds = MonotonicClock.now() - started
        return outcome
    }

    private func metrics(_ server: ServerProcess) throws -> MetricsText {
        let (status, _, body) = try WebSocketClient.httpGet(url: server.httpURL + "metrics", timeout: 5)
        guard status == 200 else { throw Failure(description: "/metrics answered \(status)") }
        return MetricsText(String(decoding: body, as: UTF8.self))
    }

    /// The room's semantics, as one full message (the last full one with the patches since), once
    /// it sent nothing for `quiet` seconds and every track it sent has ended (a glide or a roll on a
    /// track sends nothing until it changes or rests).
    private func semantics(of room: String, on server: ServerProcess) throws -> String {
        let client = try WebSocketClient(url: server.wsURL, subprotocol: ProtocolVersion.subprotocol)
        defer { client.close() }
        try client.send(text: ClientMessage.hello(.init(room: room)).encoded())
        var known = SemanticsMirror()
        // Room time: the latest frame's, and when it came; the latest end of a track received.
        var frameAt: (time: Double, arrival: Double)?
        var tracksEnd = -Double.infinity
        let deadline = MonotonicClock.now() + timeout
        while MonotonicClock.now() < deadline {
            switch try client.receive(timeout: quiet) {
            case .text(let text)?:
                let message = ServerText(Array(text.utf8))
                if message.type == "semantics" { known.take(text: text) }
                if message.type == "error" {
                    throw Failure(description: "room \(room): error \(message.code ?? "?"): \(message.message ?? "")")
                }
            case .binary(let bytes)?:
                guard let frame = try? DecodedFrame(bytes) else { continue }
                frameAt = (frame.time, MonotonicClock.now())
                for layer in frame.layers { if let track = layer.track { tracksEnd = max(tracksEnd, track.end) } }
            case nil:
                let roomNow = frameAt.map { $0.time + MonotonicClock.now() - $0.arrival } ?? .infinity
                if let last = known.message, roomNow > tracksEnd { return last }
            }
        }
        throw Failure(description: "room \(room) did not come to rest within \(Int(timeout)) s")
    }
}
