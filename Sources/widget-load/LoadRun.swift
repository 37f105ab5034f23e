import Foundation
import LoopbackTools
import ScrollCore
import ScrollServer

/// One bounded load run: connect N clients, let them settle, run the script, count, stop.
/// Everything happens on the calling thread (the sockets' one service thread).
final class LoadRun: ClientSocketsDelegate {
    enum Phase { case connecting, settling, warmup, window, idle, done }

    let options: LoadOptions
    private let sockets: ClientSockets
    private let serverPID: Int32?
    /// More server processes whose CPU time is read over the window (a cluster's other nodes).
    private let otherPIDs: [Int32]
    private var peers: [Peer]
    private var phase = Phase.connecting
    private var phaseStart = 0.0
    private var runStart = 0.0
    private var lastByte = 0.0
    private var nextToConnect = 0
    private var connecting = 0
    private var scripts: [FlingScript]
    private var scriptStart = 0.0
    private var probe = LatencyProbe()
    /// The newest frame any client of each room received in the window.
    private var roomNewest: [UInt32]
    private var measure = Measurements()
    private var failure: String?
    /// The mirror script: messages queued for client 0, and the seq of the last one written.
    private var mirrorQueued = 0
    private var mirrorSeq: UInt32 = 0

    /// Everything read at the phase boundaries.
    struct Measurements {
        var connectSeconds = 0.0
        var rssBefore: Int?
        var rssAfter: Int?
        /// After the window: what the run itself added (buffers while flinging).
        var rssEnd: Int?
        var windowStart = 0.0
        var windowEnd = 0.0
        var ownCPU = (0.0, 0.0)
        var serverCPU: (Double?, Double?) = (nil, nil)
        var otherCPU: [(Double?, Double?)] = []
        var idleBytes: Int?
        var idleFrom = 0
        /// Sizes of the frames (mirror: messages) received in the window, by every client.
        var frameSizes: [Int] = []
        /// The mirror script's last seq written when the window opened and closed.
        var mirrorSeqs: (UInt32, UInt32) = (0, 0)
    }

    convenience init(options: LoadOptions, target: LoopbackTarget, serverPID: Int32?) throws {
        try self.init(options: options, targets: [target], serverPID: serverPID)
    }

    /// Clients spread over `targets` (client `i` on `targets[i % count]`).
    init(options: LoadOptions, targets: [LoopbackTarget], serverPID: Int32?, otherPIDs: [Int32] = []) throws {
        self.options = options
        self.serverPID = serverPID
        self.otherPIDs = otherPIDs
        sockets = try ClientSockets(
            targets: targets,
            subprotocol: options.script == .mirror ? MirrorServer.subprotocol : ProtocolVersion.subprotocol)
        peers = Array(repeating: Peer(), count: options.clients)
        let script =
            switch options.script {
            case .pickerFling: FlingScript(y: FlingScript.pickerY)
            case .rulerFling: FlingScript(y: FlingScript.rulerY)
            case .fling: FlingScript()
            default: FlingScript.sweep()
            }
        scripts = Array(repeating: script, count: options.rooms)
        roomNewest = Array(repeating: 0, count: options.rooms)
        sockets.delegate = self
    }

    /// Runs to the end (bounded by the options' timeouts) and reports.
    func run() throws -> LoadReport {
        runStart = now()
        measure.rssBefore = serverPID.flatMap(ProcessUsage.residentKiB)
        enter(.connecting)
        timerFired()
        sockets.run()
        sockets.close()
        if let failure { throw LoadFailure(description: failure) }
        return LoadReport(options: options, peers: peers, roomNewest: roomNewest, measure: measure, probe: probe)
    }

    private func now() -> Double { MonotonicClock.now() }

    private func enter(_ next: Phase) {
        phase = next
        phaseStart = now()
    }

    // MARK: the clock: phases and the script

    func timerFired() {
        let now = now()
        let inPhase = now - phaseStart
        switch phase {
        case .connecting:
            connectMore()
            let resolved = peers.filter { $0.joined || $0.state == .closed }.count
            if resolved == peers.count || inPhase > options.connectTimeout {
                measure.connectSeconds = inPhase
                lastByte = now
                enter(.settling)
            }
        case .settling:
            // Joins send presence to everyone; wait for that to stop before reading memory.
            if now - lastByte >= 0.3 || inPhase > 15 {
                measure.rssAfter = serverPID.flatMap(ProcessUsage.residentKiB)
                if options.script == .idle {
                    measure.idleFrom = peers.reduce(0) { $0 + $1.bytesTotal }
                    enter(.idle)
                } else {
                    scriptStart = now
                    if options.script == .drag { send(0, .pointer(.down, x: probe.nextX, y: LatencyProbe.y)) }
                    enter(.warmup)
                }
            }
        case .warmup:
            runScript(now: now)
            if inPhase >= options.warmup { startWindow(now) }
        case .window:
            runScript(now: now)
            let enough = options.script == .drag && probe.echo.count >= options.samples
            if enough || inPhase >= options.duration { finish(now) }
        case .idle:
            if inPhase >= 1 {
                measure.idleBytes = peers.reduce(0) { $0 + $1.bytesTotal } - measure.idleFrom
                finish(now)
            }
        case .done:
            return
        }
        if phase != .done, now - runStart > options.connectTimeout + 30 + options.warmup + options.duration {
            failure = "the run did not finish in time (phase \(phase))"
            sockets.stop()
            return
        }
        scheduleStep(now: now)
    }

    /// The next timer: in a drag, when the probe's next step is due (a tick of a fixed period
    /// would send the ping up to a period late, after a longer idle than the move's).
    private func scheduleStep(now: Double) {
        guard options.script == .drag else { return sockets.schedule(microseconds: 4000) }
        sockets.schedule(microseconds: max(20, Int(probe.untilNextStep(now: now * 1000) * 1000)))
    }

    private func connectMore() {
        while nextToConnect < peers.count, connecting < options.connectConcurrency {
            let i = nextToConnect
            nextToConnect += 1
            peers[i].state = .connecting
            connecting += 1
            if !sockets.connect(i), peers[i].state == .connecting { closed(i, error: "could not start connecting") }
        }
    }

    private func runScript(now: Double) {
        switch options.script {
        case .sweep, .fling, .pickerFling, .rulerFling:
            for room in 0..<options.rooms {
                for step in scripts[room].due(at: now - scriptStart) {
                    send(room, .pointer(step.phase, x: step.x, y: scripts[room].y))
                }
            }
        case .drag:
            if probe.wantsPing(now: now * 1000) { send(0, .ping) }
            if phase == .window, probe.wantsMove(now: now * 1000) { send(0, .probeMove) }
        case .mirror:
            let due = Int((now - scriptStart) * options.messageRate)
            while mirrorQueued < due {
                mirrorQueued += 1
                send(0, .mirror)
            }
        case .idle:
            break
        }
    }

    private func startWindow(_ now: Double) {
        for i in peers.indices { peers[i].tally = FrameTally() }
        roomNewest = Array(repeating: 0, count: options.rooms)
        measure.windowStart = now
        measure.ownCPU.0 = ProcessUsage.ownCPU()
        measure.serverCPU.0 = serverPID.flatMap(ProcessUsage.cpu)
        measure.otherCPU = otherPIDs.map { (ProcessUsage.cpu(pid: $0), nil) }
        measure.mirrorSeqs.0 = mirrorSeq
        enter(.window)
    }

    private func finish(_ now: Double) {
        if phase == .window {
            measure.windowEnd = now
            measure.ownCPU.1 = ProcessUsage.ownCPU()
            measure.serverCPU.1 = serverPID.flatMap(ProcessUsage.cpu)
            for (i, pid) in otherPIDs.enumerated() { measure.otherCPU[i].1 = ProcessUsage.cpu(pid: pid) }
            measure.mirrorSeqs.1 = mirrorSeq
        }
        measure.rssEnd = serverPID.flatMap(ProcessUsage.residentKiB)
        enter(.done)
        sockets.stop()
    }

    private func send(_ index: Int, _ message: Peer.Outgoing) {
        guard peers[index].state == .open else { return }
        peers[index].outgoing.append(message)
        sockets.requestWrite(index)
    }

    // MARK: sockets

    func established(_ index: Int) {
        peers[index].state = .open
        connecting -= 1
        // A mirror instance has no hello: the connection is in it once open.
        if options.script == .mirror {
            peers[index].joined = true
        } else {
            send(index, .hello(room: options.room(of: index), scene: options.scene))
        }
    }

    func closed(_ index: Int, error: String?) {
        if peers[index].state == .connecting { connecting -= 1 }
        peers[index].state = .closed
        if peers[index].error == nil, phase != .done {
            peers[index].error = error ?? (peers[index].joined ? "closed by the server" : "closed before welcome")
        }
    }

    func nextText(_ index: Int) -> String? {
        guard !peers[index].outgoing.isEmpty else { return nil }
        let message = peers[index].outgoing.removeFirst()
        if !peers[index].outgoing.isEmpty { sockets.requestWrite(index) }
        // Stamped on the client's own clock, as a page's event.timeStamp; the probe times it from
        // its write (`writing`), after it is encoded.
        let t = now() * 1000
        switch message {
        case .hello(let room, let scene):
            return ClientMessage.hello(.init(room: room, scene: scene)).encoded()
        case .pointer(let phase, let x, let y):
            return ClientMessage.pointer(.init(phase: phase, id: 1, x: x, y: y, t: t)).encoded()
        case .probeMove:
            let x = probe.nextX
            probe.moveSent(t: t)
            return ClientMessage.pointer(.init(phase: .move, id: 1, x: x, y: LatencyProbe.y, t: t)).encoded()
        case .ping:
            probe.pingSent(t: t)
            return ClientMessage.ping(t: t).encoded()
        case .mirror:
            mirrorSeq += 1
            return MirrorMessage.text(seq: mirrorSeq, size: options.messageBytes)
        }
    }

    func writing(_ index: Int) {
        if index == 0 { probe.written(now: now() * 1000) }
    }

    func received(_ index: Int, _ bytes: UnsafeRawBufferPointer, binary: Bool, isLast: Bool) {
        lastByte = now()
        peers[index].bytesTotal += bytes.count
        if phase == .window { peers[index].tally.received(bytes: bytes.count) }
        guard let message = peers[index].message.add(bytes, binary: binary, isLast: isLast) else { return }
        if phase == .window { peers[index].tally.messages += 1 }
        if options.script == .mirror {
            if !message.binary, let seq = MirrorMessage.seq(message.bytes) {
                counted(index, seq: seq, isDelta: false, size: message.size)
            }
        } else if message.binary {
            message.bytes.withUnsafeBytes { frame(index, $0, size: message.size) }
        } else {
            text(index, message.bytes)
        }
    }

    private func frame(_ index: Int, _ bytes: UnsafeRawBufferPointer, size: Int) {
        guard let header = FrameTally.header(bytes) else { return }
        guard phase == .window || phase == .warmup else { return }
        counted(index, seq: header.seq, isDelta: header.isDelta, size: size)
        if index == 0 { probe.frame(now: lastByte * 1000) }
    }

    /// A frame (mirror: a message) received: tallied in the window.
    private func counted(_ index: Int, seq: UInt32, isDelta: Bool, size: Int) {
        guard phase == .window else { return }
        peers[index].tally.frame(seq: seq, isDelta: isDelta)
        measure.frameSizes.append(size)
        let room = index % options.rooms
        roomNewest[room] = max(roomNewest[room], seq)
    }

    private func text(_ index: Int, _ bytes: [UInt8]) {
        // Most text is events for the room; only the driver and newcomers read theirs.
        if index != 0, peers[index].joined, !ServerText.hasType("error", bytes) { return }
        let message = ServerText(bytes)
        switch message.type {
        case "welcome":
            peers[index].joined = true
        case "applied" where index == 0:
            if let t = message.t {
                probe.applied(t: t)
                scheduleStep(now: lastByte)
            }
        case "pong" where index == 0:
            if let t = message.t {
                probe.pong(t: t, now: lastByte * 1000)
                scheduleStep(now: lastByte)
            }
        case "error":
            if peers[index].error == nil { peers[index].error = message.code ?? "error" }
        default:
            break
        }
    }
}

struct LoadFailure: Error, CustomStringConvertible { let description: String }
