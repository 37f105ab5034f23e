import LoopbackTools
import ScrollCore
import ScrollServer

/// Soak phase 1: `cycles` connections, at most `concurrency` at once, each joining one of a
/// few rooms and leaving again (CycleKind). Every one must go as planned. The server is read
/// when quiet after the warm-up ("before") and at the end ("after"): no connection open, 2 s
/// settled, so its descriptors and memory compare like for like; "during" readings are taken
/// with connections in flight.
final class CycleSoak: ClientSocketsDelegate {
    struct Options {
        var cycles = 10_000
        var concurrency = 32
        var rooms = 4
        var settle = 2.0
        /// A cycle not over by then failed (its socket is reset).
        var cycleTimeout = 10.0
        var warmup: Int { min(500, cycles / 5) }
        var sampleEvery: Int { max(1, min(1000, cycles / 10)) }
        /// The whole phase ends by then, done or not (a 10,000-cycle run takes a minute or two).
        var deadline: Double { 60 + Double(cycles) * 0.05 }
    }

    struct Outcome: Encodable {
        var cycles: Int
        /// Cycles that went as planned, by kind.
        var completed: [String: Int]
        /// Cycles that did not, by reason.
        var failures: [String: Int]
        var seconds: Double
        var samples: [ServerSample]
        /// Why the phase stopped early, if it did.
        var stopped: String?
    }

    private struct Cycle {
        let kind: CycleKind
        let started: Double
        var helloSent = false
        var welcomed = false
        var framed = false
        var ending: ClientSockets.Ending?
        var failure: String?
        var message = MessageHead()
    }

    private enum Stage {
        case starting(upTo: Int)
        /// No new cycles; once none is open, settle and read the server as `label`.
        case draining(label: String)
        case settling(label: String, since: Double)
        case done
    }

    private let options: Options
    private let server: SoakedServer
    private let sockets: ClientSockets
    private var active: [Int: Cycle] = [:]
    private var started = 0
    private var stage = Stage.starting(upTo: 0)
    private var phaseStart = 0.0
    private var lastLivenessCheck = 0.0
    /// Past this many failed cycles the phase stops: the verdict is in, the server likely gone.
    private static let failureLimit = 100
    private var failed = 0
    /// Set while `startMore` runs: a cycle that fails at once must not start the next itself.
    private var startingMore = false
    private var outcome: Outcome

    init(options: Options, target: LoopbackTarget, server: SoakedServer) throws {
        self.options = options
        self.server = server
        sockets = try ClientSockets(target: target)
        outcome = Outcome(cycles: 0, completed: [:], failures: [:], seconds: 0, samples: [], stopped: nil)
        sockets.delegate = self
    }

    func run() -> Outcome {
        phaseStart = now()
        outcome.samples.append(server.sample("start", seconds: 0, connections: 0, cycles: 0))
        stage = .starting(upTo: options.warmup)
        timerFired()
        sockets.run()
        sockets.close()
        outcome.seconds = now() - phaseStart
        return outcome
    }

    private func now() -> Double { MonotonicClock.now() }

    // MARK: the clock

    func timerFired() {
        let now = now()
        let elapsed = now - phaseStart
        if now - lastLivenessCheck >= 1 {
            lastLivenessCheck = now
            if !server.isRunning() { return stop("the server exited") }
        }
        if failed > Self.failureLimit { return stop("over \(Self.failureLimit) cycles failed") }
        if elapsed > options.deadline {
            return stop("phase 1 did not finish within \(Int(options.deadline)) s (\(started) cycles started)")
        }
        expireStuckCycles(now: now)
        switch stage {
        case .starting:
            startMore()
        case .draining(let label):
            if active.isEmpty { stage = .settling(label: label, since: now) }
        case .settling(let label, let since):
            guard now - since >= options.settle else { break }
            outcome.samples.append(server.sample(label, seconds: elapsed, connections: 0, cycles: started))
            if label == "after" {
                stage = .done
                sockets.stop()
                return
            }
            stage = .starting(upTo: options.cycles)
            startMore()
        case .done:
            return
        }
        sockets.schedule(microseconds: 2000)
    }

    private func stop(_ reason: String) {
        outcome.stopped = reason
        stage = .done
        sockets.stop()
    }

    private func startMore() {
        guard case .starting(let limit) = stage, !startingMore else { return }
        startingMore = true
        defer { startingMore = false }
        // A refused connect can fail at once, inside `connect`: the limit stops such a run here.
        while started < limit, active.count < options.concurrency, failed <= Self.failureLimit {
            let n = started
            started += 1
            active[n] = Cycle(kind: CycleKind(cycle: n), started: now())
            if !sockets.connect(n), active[n] != nil { finish(n, failure: "could not start connecting") }
            if started > options.warmup, started % options.sampleEvery == 0 {
                outcome.samples.append(
                    server.sample(
                        "during", seconds: now() - phaseStart, connections: active.count, cycles: started))
            }
        }
        if started == limit {
            stage = .draining(label: limit == options.cycles ? "after" : "before")
        }
    }

    /// A cycle past its time is reset; one that has not even opened is given up.
    private func expireStuckCycles(now: Double) {
        for (n, cycle) in active where now - cycle.started > options.cycleTimeout {
            if cycle.ending == nil {
                active[n]?.failure = "not over within \(Int(options.cycleTimeout)) s"
                active[n]?.ending = .reset
                sockets.requestWrite(n)
            } else if now - cycle.started > 3 * options.cycleTimeout {
                finish(n, failure: cycle.failure ?? "no answer to the close within \(Int(2 * options.cycleTimeout)) s")
            }
        }
    }

    private func finish(_ n: Int, failure: String?) {
        guard let cycle = active.removeValue(forKey: n) else { return }
        outcome.cycles += 1
        if let failure {
            failed += 1
            outcome.failures[failure, default: 0] += 1
        } else {
            outcome.completed[cycle.kind.rawValue, default: 0] += 1
        }
        startMore()
    }

    // MARK: sockets

    func established(_ n: Int) {
        guard active[n] != nil else { return }
        if active[n]?.kind == .closeBeforeHello { active[n]?.ending = .close }
        sockets.requestWrite(n)
    }

    func nextText(_ n: Int) -> String? {
        guard let cycle = active[n], cycle.kind.sendsHello, !cycle.helloSent else { return nil }
        active[n]?.helloSent = true
        if cycle.kind == .closeBeforeWelcome {
            active[n]?.ending = .close
            sockets.requestWrite(n)
        }
        return ClientMessage.hello(.init(room: "soak-\(n % options.rooms)", scene: DemoScene.name)).encoded()
    }

    func ending(_ n: Int) -> ClientSockets.Ending? { active[n]?.ending }

    func received(_ n: Int, _ bytes: UnsafeRawBufferPointer, binary: Bool, isLast: Bool) {
        guard var cycle = active[n], cycle.ending == nil else { return }
        guard let message = cycle.message.add(bytes, binary: binary, isLast: isLast) else {
            active[n] = cycle
            return
        }
        if message.binary {
            if cycle.welcomed, !cycle.framed {
                cycle.framed = true
                if cycle.kind == .complete { cycle.ending = .close }
            }
        } else {
            let text = ServerText(message.bytes)
            switch text.type {
            case "welcome":
                cycle.welcomed = true
                if cycle.kind == .dropAtWelcome { cycle.ending = .drop }
                if cycle.kind == .resetAtWelcome { cycle.ending = .reset }
            case "error":
                cycle.failure = "server error \(text.code ?? "?")"
                cycle.ending = .close
            default:
                break
            }
        }
        active[n] = cycle
    }

    func closed(_ n: Int, error: String?) {
        guard let cycle = active[n] else { return }
        if let error { return finish(n, failure: error) }
        if let failure = cycle.failure { return finish(n, failure: failure) }
        guard cycle.ending != nil else {
            let when =
                cycle.welcomed ? "before the first frame" : cycle.helloSent ? "before the welcome" : "before hello"
            return finish(n, failure: "closed by the server \(when)")
        }
        finish(n, failure: nil)
    }
}
