import LoopbackTools
import ScrollCore
import ScrollServer

/// Soak phase 2: `clients` connections in a few demo rooms, each playing the golden traces
/// (TracePlayer) for `duration` seconds in all. After the warm-up every client leaves, the
/// server settles and is read ("before"), and they come back; at the end they leave again and
/// it is read once more ("after"), so both readings are of a quiet server. "During" readings
/// are taken with the clients connected.
final class ReplaySoak: ClientSocketsDelegate {
    struct Options {
        var clients = 12
        var rooms = 3
        var duration = 600.0
        var settle = 2.0
        /// Longest wait for the clients to join or to be gone.
        var connectTimeout = 15.0
        var warmup: Double { min(60, duration / 5) }
        var sampleEvery: Double { min(30, max(duration / 10, 1)) }
        var deadline: Double { duration + 3 * connectTimeout + 2 * settle + 30 }
        /// A refused action is part of the traces (roller-refused) and of sharing a room (an item
        /// another client deleted): reported, not a failure.
        static let expectedErrors: Set<String> = ["bad_action"]
    }

    struct Outcome: Encodable {
        var clients: Int
        var rooms: Int
        var traces: Int
        var seconds = 0.0
        /// Connections opened, the returns after a leave and after the warm-up included.
        var connections = 0
        /// Times a client left at a trace's `leave` line (and came back).
        var leaves = 0
        var tracesPlayed = 0
        /// Messages by type.
        var sent: [String: Int] = [:]
        /// Messages by type; frames as "frame".
        var received: [String: Int] = [:]
        /// `error` messages by code.
        var serverErrors: [String: Int] = [:]
        var failures: [String: Int] = [:]
        var samples: [ServerSample] = []
        var stopped: String?

        var unexpectedErrors: [String: Int] { serverErrors.filter { !Options.expectedErrors.contains($0.key) } }
    }

    private struct Client {
        var player: TracePlayer
        var socket: Int?
        /// Connect at the next tick (the replay runs and this client has no connection).
        var reconnect = false
        var joined = false
        var ending: ClientSockets.Ending?
        var outgoing: [String] = []
        var message = MessageHead()
    }

    private enum Stage: Equatable {
        case warmup, quieting, settlingBefore, main, closing, settlingAfter, done
        var plays: Bool { self == .warmup || self == .main }
    }

    /// The demo room of the replay's `index`th room.
    static func room(_ index: Int) -> String { "soak-replay-\(index)" }

    private let options: Options
    private let server: SoakedServer
    private let sockets: ClientSockets
    private var clients: [Client] = []
    /// Socket index → client.
    private var owners: [Int: Int] = [:]
    private var nextSocket = 0
    private var stage = Stage.warmup
    private var stageStart = 0.0
    private var phaseStart = 0.0
    private var nextSample = 0.0
    private var lastLivenessCheck = 0.0
    private var outcome: Outcome

    init(options: Options, traces: [SoakTrace], target: LoopbackTarget, server: SoakedServer) throws {
        self.options = options
        self.server = server
        sockets = try ClientSockets(target: target)
        outcome = Outcome(clients: options.clients, rooms: options.rooms, traces: traces.count)
        phaseStart = MonotonicClock.now()
        // Each client starts at its own trace, spread over the list.
        clients = (0..<options.clients).map { i in
            Client(player: TracePlayer(traces: traces, first: i * traces.count / options.clients, now: 0))
        }
        sockets.delegate = self
    }

    func run() -> Outcome {
        phaseStart = MonotonicClock.now()
        outcome.samples.append(server.sample("start", seconds: 0, connections: 0))
        enter(.warmup)
        for i in clients.indices { connect(i) }
        timerFired()
        sockets.run()
        sockets.close()
        outcome.seconds = elapsed()
        outcome.tracesPlayed = clients.map(\.player.played).reduce(0, +)
        return outcome
    }

    /// Seconds since the phase began; the players count in ms from there.
    private func elapsed() -> Double { MonotonicClock.now() - phaseStart }
    private var openSockets: Int { clients.filter { $0.socket != nil }.count }

    private func enter(_ next: Stage) {
        stage = next
        stageStart = elapsed()
    }

    // MARK: the clock

    func timerFired() {
        let now = elapsed()
        let inStage = now - stageStart
        if now - lastLivenessCheck >= 1 {
            lastLivenessCheck = now
            if !server.isRunning() { return stop("the server exited") }
        }
        if now > options.deadline { return stop("phase 2 did not finish within \(Int(options.deadline)) s") }
        if outcome.failures.values.reduce(0, +) > 100 { return stop("over 100 connection failures") }
        switch stage {
        case .warmup:
            play(now: now)
            if inStage >= options.warmup { quiet(then: .quieting) }
        case .main:
            play(now: now)
            if now >= nextSample {
                outcome.samples.append(server.sample("during", seconds: now, connections: openSockets))
                nextSample += options.sampleEvery
            }
            if inStage >= options.duration - options.warmup { quiet(then: .closing) }
        case .quieting, .closing:
            if openSockets == 0 {
                enter(stage == .quieting ? .settlingBefore : .settlingAfter)
            } else if inStage > options.connectTimeout {
                return stop("\(openSockets) clients still connected \(Int(options.connectTimeout)) s after closing")
            }
        case .settlingBefore:
            guard inStage >= options.settle else { break }
            outcome.samples.append(server.sample("before", seconds: now, connections: 0))
            enter(.main)
            nextSample = now + options.sampleEvery
            for i in clients.indices { connect(i) }
        case .settlingAfter:
            guard inStage >= options.settle else { break }
            outcome.samples.append(server.sample("after", seconds: now, connections: 0))
            enter(.done)
            sockets.stop()
            return
        case .done:
            return
        }
        sockets.schedule(microseconds: 4000)
    }

    private func stop(_ reason: String) {
        outcome.stopped = reason
        enter(.done)
        sockets.stop()
    }

    private func play(now: Double) {
        for i in clients.indices where clients[i].reconnect && clients[i].socket == nil { connect(i) }
        for i in clients.indices where clients[i].joined && clients[i].ending == nil {
            for step in clients[i].player.due(now: now * 1000) {
                switch step {
                case .send(let text):
                    clients[i].outgoing.append(text)
                case .leave:
                    outcome.leaves += 1
                    end(i, now: now)
                }
            }
            if let socket = clients[i].socket, !clients[i].outgoing.isEmpty { sockets.requestWrite(socket) }
        }
    }

    /// Every client leaves (a close frame); `next` waits until all are gone.
    private func quiet(then next: Stage) {
        let now = elapsed()
        for i in clients.indices {
            clients[i].reconnect = false
            if clients[i].socket != nil { end(i, now: now) }
        }
        enter(next)
    }

    private func end(_ i: Int, now: Double) {
        clients[i].player.pause(now: now * 1000)
        clients[i].ending = .close
        if let socket = clients[i].socket { sockets.requestWrite(socket) }
    }

    private func connect(_ i: Int) {
        let socket = nextSocket
        nextSocket += 1
        owners[socket] = i
        clients[i].socket = socket
        clients[i].reconnect = false
        outcome.connections += 1
        if !sockets.connect(socket), clients[i].socket == socket { closed(socket, error: "could not start connecting") }
    }

    // MARK: sockets

    func established(_ socket: Int) {
        guard let i = owners[socket] else { return }
        if clients[i].ending == nil {
            let room = Self.room(i % options.rooms)
            clients[i].outgoing = [
                ClientMessage.hello(
                    .init(
                        room: room, theme: i % 2 == 1 ? "dark" : "light", reducedMotion: i % 4 == 3,
                        scene: DemoScene.name)
                ).encoded()
            ]
        }
        sockets.requestWrite(socket)
    }

    func nextText(_ socket: Int) -> String? {
        guard let i = owners[socket], !clients[i].outgoing.isEmpty else { return nil }
        let text = clients[i].outgoing.removeFirst()
        // One write per callback; after the last, the close if one is due.
        if !clients[i].outgoing.isEmpty || clients[i].ending != nil { sockets.requestWrite(socket) }
        outcome.sent[String(ServerText(Array(text.utf8)).type), default: 0] += 1
        return text
    }

    /// What was queued before a leave goes out first.
    func ending(_ socket: Int) -> ClientSockets.Ending? {
        guard let i = owners[socket], clients[i].outgoing.isEmpty else { return nil }
        return clients[i].ending
    }

    func received(_ socket: Int, _ bytes: UnsafeRawBufferPointer, binary: Bool, isLast: Bool) {
        guard let i = owners[socket], let message = clients[i].message.add(bytes, binary: binary, isLast: isLast)
        else { return }
        if message.binary {
            outcome.received["frame", default: 0] += 1
            return
        }
        let text = ServerText(message.bytes)
        outcome.received[String(text.type), default: 0] += 1
        switch text.type {
        case "welcome":
            clients[i].joined = true
            clients[i].player.resume(now: elapsed() * 1000)
        case "error":
            outcome.serverErrors[text.code ?? "?", default: 0] += 1
        default:
            break
        }
    }

    func closed(_ socket: Int, error: String?) {
        guard let i = owners.removeValue(forKey: socket), clients[i].socket == socket else { return }
        let ended = clients[i].ending != nil
        clients[i].player.pause(now: elapsed() * 1000)
        clients[i].socket = nil
        clients[i].joined = false
        clients[i].ending = nil
        clients[i].outgoing = []
        clients[i].message = MessageHead()
        if let error {
            outcome.failures[error, default: 0] += 1
        } else if !ended {
            outcome.failures["closed by the server", default: 0] += 1
        }
        // Back at the next tick while the replay runs (after a leave line, or after a failure,
        // counted).
        clients[i].reconnect = stage.plays
    }
}
