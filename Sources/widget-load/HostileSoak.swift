import LoopbackTools
import ScrollCore
import ScrollServer

/// Soak phase 3: the abuse the server's rules are for (docs/RELIABILITY.md, "Soak"), in rounds
/// alike, the first a warm-up. A round: (A) readers, a burster, a flooder and readers that stop
/// reading join a picker room; the burster sends bursts of 2,000 wheels across the whole picker,
/// the flooder three bursts' worth of pings at once; (B) meanwhile idle TCP connections and
/// WebSockets that never say hello, past the 256 allowed; (C) then new rooms from one address,
/// past the 120 allowed at once, then one every 2 s; last, the readers that never read again
/// must have been let go. Every refusal the rules call for must come, and only those: the server
/// is read quiet after the warm-up round ("before") and after the last ("after"), and during.
final class HostileSoak: ClientSocketsDelegate {
    struct Options {
        /// Rounds after the warm-up round.
        var rounds = 2
        /// Clients that read everything in the burst room (besides the burster and the flooder).
        var readers = 3
        /// Readers that stop reading at their welcome and read again after the stall.
        var stalled = 4
        /// Readers that stop reading at their welcome and never read again (until the check).
        var vanished = 2
        var idleSockets = 48
        var helloLess = 264
        /// New rooms asked for at once, and then one every `pacedEvery`.
        var rushedRooms = 150
        var pacedRooms = 10
        var pacedEvery = 2.0
        /// Bursts per round, `burstEvery` apart: 3 × 9.5 MB of events stay under a stalled
        /// reader's 32 MiB, so it is the 10 s rule that closes it.
        var bursts = 3
        var burstEvery = 3.0
        /// After the bursts, one wheel this often keeps events coming until the stall is over.
        var keepAliveEvery = 0.5
        var floodPings = 3 * HostileRules.messageBurst
        var handshakesInFlight = 64
        var roomsInFlight = 16
        var settle = 2.0
        /// Every room this run makes starts with it: new rooms, even on a server that stores them.
        var tag = "soak-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
        /// The picker room of round `round` (0: the warm-up).
        func burstRoom(_ round: Int) -> String { "\(tag)-burst-\(round)" }

        /// The longest a round may take (one usually takes under a minute).
        var roundDeadline: Double { 150 + Double(rushedRooms + helloLess) * 0.1 + Double(pacedRooms) * pacedEvery }
        var deadline: Double { Double(rounds + 1) * (roundDeadline + settle) + 30 }
    }

    struct Span: Encodable {
        var min: Double
        var max: Double
        init(_ x: Double) { min = x; max = x }
        mutating func add(_ x: Double) { min = Swift.min(min, x); max = Swift.max(max, x) }
    }

    struct Rush: Encodable {
        var made: Int
        var refused: Int
        /// From the first hello to the last answer.
        var seconds: Double
    }

    struct Outcome: Encodable {
        /// Rounds finished, the warm-up round included.
        var rounds = 0
        var seconds = 0.0
        /// Connections opened, by probe.
        var opened: [String: Int] = [:]
        /// Messages sent, by type.
        var sent: [String: Int] = [:]
        /// The refusals and closes the rules call for, as they came (each is required).
        var expected: [String: Int] = [:]
        /// Seconds from connecting to the server's close, fastest and slowest, by kind.
        var closeSeconds: [String: Span] = [:]
        /// Each rush of new rooms, in order.
        var rushes: [Rush] = []
        /// Clicks every reader of the burst room counted (summed over readers and rounds), and
        /// what the wheels sent make (each crosses the whole picker).
        var clicks = 0
        var clicksExpected = 0
        var eventsMessages = 0
        var largestEventsMessage = 0
        var failures: [String: Int] = [:]
        var samples: [ServerSample] = []
        /// Whether the server's peak memory was counted from this phase's start (else from its own).
        var peaksFromStart = false
        var stopped: String?
    }

    enum Role: String {
        case reader, burster, flooder, stalled, vanished, helloLess, rushed, paced

        /// Counts the room's events (and must stay connected through the bursts).
        var tallies: Bool { self == .reader || self == .burster || self == .flooder }
    }

    struct Client {
        let role: Role
        let started: Double
        var established: Double?
        var welcomed = false
        var outgoing: [String] = []
        /// Wheels (burster) or pings (flooder) still to send.
        var pending = 0
        var ending: ClientSockets.Ending?
        var message = MessageHead()
        var tally = EventTally()
        /// Error codes received, in order, and the last one's text.
        var errors: [String] = []
        var errorMessage = ""
        var closeCode: UInt16?
        var closeReason = ""
    }

    struct Round {
        let number: Int
        let started: Double
        let room: String
        /// Stage A's connections (socket indices).
        var members: [Int] = []
        var joined: Double?
        var burstsSent = 0
        var nextWheels = 0.0
        var wheels = 0
        var flooded = false
        /// Scene time of the first event after the bursts, as the first reader saw it.
        var keepAliveFrom: Double?
        /// Each stalled reader's bytes waiting on both sides of its connection (its socket's
        /// unread, the server's unsent), since when they stand (soak time), and when last read.
        var waiting: [Int: (bytes: [Int], since: Double)] = [:]
        var waitingRead = 0.0
        var resumed: Double?
        var stalledGivenUp = false
        var readersEnded: Double?
        var probesStarted: Double?
        var helloLessStarted = 0
        var helloLessSampled = false
        var helloLessGivenUp = false
        var helloLessLastOpen = 0.0
        var firstNotReady: Double?
        var helloLessServerFull = 0
        var roomsStarted: Double?
        var rushStarted = 0
        var rushFirst: Double?
        var rushLast = 0.0
        var rushMade = 0
        var rushRefused = 0
        var rushChecked = false
        var pacedStarted = 0
        var nextPaced = 0.0
        var restUntil: Double?
        var vanishedRead: Double?
        var vanishedGivenUp = false
    }

    private enum Stage {
        case round
        case quieting(label: String)
        case settling(label: String, since: Double)
        case done
    }

    let options: Options
    let server: SoakedServer
    let sockets: ClientSockets
    let idle: IdleSockets
    /// The server's port, where its side of each connection is found (`TCPQueues`).
    let serverPort: Int
    var clients: [Int: Client] = [:]
    var round: Round
    var outcome = Outcome()
    private var nextSocket = 0
    private var stage = Stage.round
    private var phaseStart = 0.0
    private var lastLivenessCheck = 0.0
    /// The highest resident memory seen since the phase began (`pollMemory`), and when it was polled.
    private var highestKiB: Int?
    private var lastMemoryPoll = 0.0
    private static let failureLimit = 2000

    init(options: Options, target: LoopbackTarget, server: SoakedServer) throws {
        self.options = options
        self.server = server
        sockets = try ClientSockets(target: target)
        idle = IdleSockets(target: target)
        serverPort = target.port
        round = Round(number: 0, started: 0, room: options.burstRoom(0))
        sockets.delegate = self
    }

    func run() -> Outcome {
        phaseStart = now()
        // Readings here see each round's peak (SoakMemoryRule), counted from this phase's start.
        outcome.peaksFromStart = server.resetPeak()
        highestKiB = server.peakNow()
        outcome.samples.append(server.sample("start", seconds: 0, connections: 0, peakKiB: highestKiB))
        round = Round(number: 0, started: now(), room: options.burstRoom(0))
        timerFired()
        sockets.run()
        sockets.close()
        idle.closeAll()
        outcome.seconds = now() - phaseStart
        return outcome
    }

    func now() -> Double { MonotonicClock.now() }
    var elapsed: Double { now() - phaseStart }
    var openConnections: Int { clients.count + idle.openCount }

    func fail(_ reason: String, _ count: Int = 1) { outcome.failures[reason, default: 0] += count }
    func expect(_ what: String, _ count: Int = 1) { outcome.expected[what, default: 0] += count }

    func clients(_ role: Role) -> [Int] { clients.filter { $0.value.role == role }.map(\.key).sorted() }

    /// A reading with clients about: "during" a measured round, "warm-up" in the first (the
    /// highest of which is what later rounds' memory is held to: `SoakMemoryRule`).
    func sampleDuring(_ moment: String) {
        outcome.samples.append(
            server.sample(
                round.number == 0 ? "warm-up" : "during", seconds: elapsed, connections: openConnections,
                moment: "round \(round.number): \(moment)", peakKiB: pollMemory()))
    }

    /// Reads the server's memory (every 0.1 s and at each reading): the highest since the phase
    /// began, which the readings report as their peak (`SoakMemoryRule`).
    @discardableResult
    func pollMemory() -> Int? {
        if let now = server.peakNow() { highestKiB = max(highestKiB ?? now, now) }
        return highestKiB
    }

    // MARK: the clock

    func timerFired() {
        let now = now()
        if now - lastMemoryPoll >= 0.1 {
            lastMemoryPoll = now
            pollMemory()
        }
        if now - lastLivenessCheck >= 1 {
            lastLivenessCheck = now
            if !server.isRunning() { return stop("the server exited") }
        }
        if now - phaseStart > options.deadline {
            return stop("phase 3 did not finish within \(Int(options.deadline)) s")
        }
        if outcome.failures.values.reduce(0, +) > Self.failureLimit {
            return stop("over \(Self.failureLimit) failures")
        }
        serviceIdleSockets(now: now)
        switch stage {
        case .round:
            if now - round.started > options.roundDeadline {
                return stop("round \(round.number) did not finish within \(Int(options.roundDeadline)) s")
            }
            if step(now: now) { finishRound() }
        case .quieting(let label):
            if openConnections == 0 { stage = .settling(label: label, since: now) }
        case .settling(let label, let since):
            guard now - since >= options.settle else { break }
            outcome.samples.append(server.sample(label, seconds: elapsed, connections: 0, peakKiB: pollMemory()))
            if label == "after" {
                stage = .done
                sockets.stop()
                return
            }
            round = Round(number: 1, started: now, room: options.burstRoom(1))
            stage = .round
        case .done:
            return
        }
        sockets.schedule(microseconds: 4000)
    }

    private func stop(_ reason: String) {
        outcome.stopped = reason
        stage = .done
        sockets.stop()
    }

    private func finishRound() {
        outcome.rounds += 1
        if round.number == 0 {
            stage = .quieting(label: "before")
        } else if round.number < options.rounds {
            round = Round(number: round.number + 1, started: now(), room: options.burstRoom(round.number + 1))
        } else {
            stage = .quieting(label: "after")
        }
    }

    /// Starts a connection for `role`.
    @discardableResult
    func connect(_ role: Role) -> Int {
        let n = nextSocket
        nextSocket += 1
        var client = Client(role: role, started: now())
        if role.tallies { client.message.textLimit = 1 << 20 }
        clients[n] = client
        outcome.opened[role.rawValue, default: 0] += 1
        if !sockets.connect(n), clients[n] != nil { closed(n, error: "could not start connecting") }
        return n
    }

    // MARK: a round

    /// One step of the round; true once it is over.
    private func step(now: Double) -> Bool {
        burstRoom(now: now)
        if let joined = round.joined { idleProbes(now: now, since: joined) }
        let burstRoomDone =
            round.readersEnded != nil && clients.values.allSatisfy { !$0.role.tallies && $0.role != .stalled }
        let idleDone =
            round.probesStarted != nil && idle.openCount == 0 && round.helloLessStarted == options.helloLess
            && clients(.helloLess).isEmpty
        guard burstRoomDone, idleDone else { return false }
        if round.roomsStarted == nil {
            checkHelloLess()
            round.roomsStarted = now
        }
        guard newRooms(now: now) else { return false }
        if round.restUntil == nil { round.restUntil = now + 2 }
        guard now >= round.restUntil! else { return false }
        return vanishedLetGo(now: now)
    }

    /// Stage A: join, bursts, the flood, keep-alive wheels, the stall, the readers' counts.
    private func burstRoom(now: Double) {
        if round.members.isEmpty {
            let roles: [Role] =
                Array(repeating: .reader, count: options.readers) + [.burster, .flooder]
                + Array(repeating: .stalled, count: options.stalled)
                + Array(repeating: .vanished, count: options.vanished)
            round.members = roles.map { connect($0) }
        }
        guard let joined = round.joined else {
            if round.members.allSatisfy({ clients[$0]?.welcomed == true }) {
                round.joined = now
                round.nextWheels = now + 0.5
            } else if now - round.started > 20 {
                stop("round \(round.number): the burst room's clients did not all join within 20 s")
            }
            return
        }
        if let resumed = round.resumed, now - resumed > 20, !round.stalledGivenUp {
            // Read again for 20 s and still not closed: the failure is named when each closes.
            round.stalledGivenUp = true
            for n in clients(.stalled) {
                clients[n]?.ending = .close
                sockets.requestWrite(n)
            }
        }
        guard round.readersEnded == nil, let burster = clients(.burster).first else { return }
        if !round.flooded, now >= joined + 2, let flooder = clients(.flooder).first {
            round.flooded = true
            clients[flooder]?.pending = options.floodPings
            sockets.requestWrite(flooder)
        }
        let stallOver = round.resumed != nil || options.stalled + options.vanished == 0
        let keepingAlive = round.burstsSent == options.bursts && !(stallOver && round.wheels % 2 == 0)
        if now >= round.nextWheels, clients[burster]?.pending == 0, round.burstsSent < options.bursts || keepingAlive {
            let count = round.burstsSent < options.bursts ? HostileRules.messageBurst : 1
            if count > 1 { round.burstsSent += 1 }
            round.wheels += count
            clients[burster]?.pending = count
            round.nextWheels = now + (count > 1 ? options.burstEvery : options.keepAliveEvery)
            sockets.requestWrite(burster)
        }
        awaitStall(now: now, joined: joined)
        // Every reader has every click the wheels made: they leave.
        let expected = round.wheels * HostileRules.pickerCrossings
        let readers = clients.filter { $0.value.role.tallies }
        let counted = readers.values.allSatisfy { $0.tally.clicks >= expected && $0.pending == 0 }
        let late = now - round.nextWheels > 30
        // The flooder leaves once told: a close sent after the pings could cut the refusal off.
        let floodAnswered =
            round.flooded
            && (clients.values.contains { $0.role == .flooder && $0.errors.contains("rate_limited") } || late)
        if round.burstsSent == options.bursts, stallOver, round.wheels % 2 == 0, floodAnswered, counted || late {
            round.readersEnded = now
            for (n, reader) in readers {
                check(reader, wheels: round.wheels)
                clients[n]?.ending = .close
                sockets.requestWrite(n)
            }
        }
    }

    /// The stalled readers read again once the server has taken nothing for them for longer than
    /// the stall rule while events came (by then each was closed `slow_consumer`): the readers'
    /// events ran that long past the bursts, and the bytes waiting for each stalled reader, in its
    /// socket and the server's (every take grows the latter), stood still a second more.
    private func awaitStall(now: Double, joined: Double) {
        guard round.resumed == nil, round.burstsSent == options.bursts, options.stalled + options.vanished > 0 else {
            return
        }
        if now - round.waitingRead >= 0.25 {
            round.waitingRead = now
            let unsent = TCPQueues.sendQueues(port: serverPort)
            for n in clients(.stalled) {
                // A side no longer there (the server let go) stands as it last stood.
                let last = round.waiting[n]?.bytes ?? [-1, -1]
                let bytes = [sockets.bytesUnread(n) ?? last[0], sockets.localPort(n).flatMap { unsent[$0] } ?? last[1]]
                if bytes != last { round.waiting[n] = (bytes, now) }
            }
        }
        let quiet = round.waiting.values.allSatisfy { now - $0.since >= HostileRules.stallTimeout + 1 }
        let tally = clients.filter { $0.value.role.tallies }.min { $0.key < $1.key }?.value.tally ?? EventTally()
        let burstClicks = options.bursts * HostileRules.messageBurst * HostileRules.pickerCrossings
        if round.keepAliveFrom == nil, tally.clicks > burstClicks { round.keepAliveFrom = tally.latestTime }
        let stalledLongEnough =
            quiet
            && round.keepAliveFrom.map { (tally.latestTime ?? 0) >= $0 + HostileRules.stallTimeout + 0.5 } ?? false
        if !stalledLongEnough, now - joined < 90 { return }
        if !stalledLongEnough {
            let stall = Int(HostileRules.stallTimeout)
            fail(
                quiet
                    ? "burst room: the events never ran \(stall) s past the bursts"
                    : "stalled readers: something was still taken for them within \(stall + 1) s, 90 s after joining")
        }
        sampleDuring("\(options.stalled) stalled and \(options.vanished) vanished readers not reading")
        round.resumed = now
        for n in clients(.stalled) { sockets.setReading(n, true) }
    }

    /// What each reader of the burst room must have: every click, the newest tick, the budget.
    private func check(_ reader: Client, wheels: Int) {
        let expected = wheels * HostileRules.pickerCrossings
        outcome.clicks += reader.tally.clicks
        outcome.clicksExpected += expected
        outcome.eventsMessages += reader.tally.messages
        outcome.largestEventsMessage = max(outcome.largestEventsMessage, reader.tally.largestMessage)
        if reader.tally.clicks != expected {
            fail("burst room: a \(reader.role) counted clicks other than the wheels made")
        }
        // An even number of wheels across the whole picker, from 0: it ends at 0.
        if wheels > 0, reader.tally.lastMoved != 0 {
            fail("burst room: a \(reader.role)'s newest tick is not the picker's last")
        }
        if reader.tally.overBudget > 0 {
            fail(
                "burst room: events messages over the budget of \(EventTally.budget) per widget",
                reader.tally.overBudget)
        }
    }

    /// Stage B, from the moment the burst room is joined: idle TCP connections and hello-less
    /// WebSockets, a few handshakes at a time.
    private func idleProbes(now: Double, since joined: Double) {
        if round.probesStarted == nil {
            round.probesStarted = now
            for event in idle.open(options.idleSockets, now: now) { idleEvent(event) }
        }
        let handshaking = clients.values.filter { $0.role == .helloLess && $0.established == nil }.count
        for _ in 0..<max(0, min(options.helloLess - round.helloLessStarted, options.handshakesInFlight - handshaking)) {
            round.helloLessStarted += 1
            connect(.helloLess)
        }
        if !round.helloLessSampled, round.helloLessStarted == options.helloLess,
            !clients.values.contains(where: { $0.role == .helloLess && $0.established == nil })
        {
            round.helloLessSampled = true
            round.helloLessLastOpen = now
            sampleDuring("\(clients(.helloLess).count) connections without hello open")
        }
        let limit = HostileRules.helloTimeout + HostileRules.slack + 10
        if now - round.probesStarted! > limit, !round.helloLessGivenUp, !clients(.helloLess).isEmpty {
            round.helloLessGivenUp = true
            fail("hello-less: connections still open after \(Int(limit)) s", clients(.helloLess).count)
            for n in clients(.helloLess) {
                clients[n]?.ending = .drop
                sockets.requestWrite(n)
            }
        }
    }

    private func serviceIdleSockets(now: Double) {
        for event in idle.service(now: now) { idleEvent(event) }
        if let started = round.probesStarted, now - started > HostileRules.headerTimeout + HostileRules.slack + 2,
            idle.openCount > 0
        {
            fail(
                "idle TCP: connections the server did not close within \(Int(HostileRules.headerTimeout + HostileRules.slack)) s",
                idle.openCount)
            idle.closeAll()
        }
    }

    private func idleEvent(_ event: IdleSockets.Event) {
        switch event {
        case let .closed(kind, seconds, answered):
            let rule = kind.asks ? HostileRules.keepAliveTimeout : HostileRules.headerTimeout
            outcome.closeSeconds["idle TCP (\(kind))", default: Span(seconds)].add(seconds)
            if answered != kind.asks {
                fail("idle TCP (\(kind)): \(answered ? "answered" : "not answered") before the close")
            } else if seconds < rule - 0.001 || seconds > rule + HostileRules.slack {
                fail("idle TCP (\(kind)): closed after \(Int(seconds)) s, not \(Int(rule)) s")
            } else {
                expect("closed: idle TCP, \(kind) (after \(Int(rule)) s)")
            }
        case .failed(let kind, let reason):
            fail("idle TCP (\(kind)): \(reason)")
        }
    }

    /// Exactly the hello-less connections past the cap are refused, if they were all open at once.
    private func checkHelloLess() {
        guard options.helloLess > 0 else { return }
        let refusedExpected = max(0, options.helloLess - HostileRules.maxUnjoined)
        if let first = round.firstNotReady, first < round.helloLessLastOpen {
            fail("hello-less: the first was closed before the last had opened (opening them took over 10 s)")
        } else if round.helloLessServerFull != refusedExpected {
            fail("hello-less: \(round.helloLessServerFull) refused server_full, \(refusedExpected) expected")
        }
        round.helloLessServerFull = 0
    }

    /// Stage C: a rush of new rooms, then one every `pacedEvery`; true once all are over.
    private func newRooms(now: Double) -> Bool {
        let inFlight = clients(.rushed).count
        for _ in 0..<max(0, min(options.rushedRooms - round.rushStarted, options.roomsInFlight - inFlight)) {
            round.rushStarted += 1
            connect(.rushed)
        }
        guard round.rushStarted == options.rushedRooms, clients(.rushed).isEmpty else { return false }
        if !round.rushChecked {
            round.rushChecked = true
            checkRush()
            // The rush emptied the address's bucket: the first waits like the rest.
            round.nextPaced = now + options.pacedEvery
        }
        if round.pacedStarted < options.pacedRooms, now >= round.nextPaced {
            round.pacedStarted += 1
            round.nextPaced = now + options.pacedEvery
            connect(.paced)
        }
        return round.pacedStarted == options.pacedRooms && clients(.paced).isEmpty
    }

    /// At most 120 new rooms and one a second since the first hello: the rest refused.
    private func checkRush() {
        guard options.rushedRooms > 0 else { return }
        let seconds = max(0, round.rushLast - (round.rushFirst ?? round.rushLast))
        outcome.rushes.append(Rush(made: round.rushMade, refused: round.rushRefused, seconds: seconds))
        let allowed = HostileRules.roomBurst + Int(seconds * HostileRules.roomsPerSecond) + 1
        if round.rushMade > allowed {
            fail("new rooms: \(round.rushMade) made in \(Int(seconds)) s from one address, at most \(allowed) allowed")
        }
    }

    /// Last, the readers that never read again: by now the server has let them go (no pong for
    /// 40 s). Read again, each must end with no close frame: nobody was left to send one.
    private func vanishedLetGo(now: Double) -> Bool {
        let vanished = clients(.vanished)
        guard !vanished.isEmpty else { return true }
        if round.vanishedRead == nil {
            guard let joined = round.joined, now >= joined + HostileRules.pongTimeout + 5 else { return false }
            sampleDuring("\(vanished.count) vanished readers not reading, 45 s after joining")
            round.vanishedRead = now
            for n in vanished { sockets.setReading(n, true) }
        } else if now - round.vanishedRead! > 15, !round.vanishedGivenUp {
            round.vanishedGivenUp = true
            fail("vanished reader: still connected \(Int(now - round.started)) s after joining", vanished.count)
            for n in vanished {
                clients[n]?.ending = .reset
                sockets.requestWrite(n)
            }
        }
        return false
    }
}
