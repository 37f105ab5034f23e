/// Input-to-frame against echo on one connection, interleaved: a pointer move, the frame that
/// the `applied` echo of its `t` comes right after, then a ping and its pong, then the next move.
/// One thing is in flight at a time, so neither measurement queues behind the other. Each goes
/// after the connection stood idle alike (`idle` since the answer before it): a ping sent the
/// moment the frame came found both processes still awake from the move, and was timed warm
/// where every move is timed after an idle (docs/BENCHMARKS.md, "Input → frame").
struct LatencyProbe {
    enum State: Equatable {
        /// Ready to send the next move once `pairInterval` has passed since the last one.
        case ready
        case moveQueued
        case awaitingApplied(t: Double)
        /// The move's frame came: the ping goes once the connection has stood `idle`.
        case pingDue
        case pingQueued
        case awaitingPong(t: Double)
    }

    /// The ruler's row in the demo and ruler scenes (both place it alike): the probe holds it.
    static let y = 214.0
    /// Two messages per pair; the server admits 1,000 a second per client (docs/PROTOCOL.md).
    static let pairInterval = 2.2
    /// How long the connection stands idle (ms) before each move (since its pong before) and
    /// each ping (since its move's frame): alike, so that both wake the same.
    static let idle = pairInterval / 2
    /// A step that got no answer in this long is given up (counted as lost).
    static let timeout = 1000.0

    private(set) var state = State.ready
    private(set) var inputToFrame: [Double] = []
    private(set) var echo: [Double] = []
    private(set) var lost = 0
    /// How long the connection stood idle (ms) before each move, from the pong before it, and
    /// before each ping, from its move's frame: the two should be alike.
    private(set) var idleBeforeMove: [Double] = []
    private(set) var idleBeforePing: [Double] = []
    private var lastAnswer: Double?
    /// When the step in flight went to the socket (ms): what it is timed from. Its stamp `t` is
    /// taken before the message is encoded (a move's three numbers, a ping's one): the
    /// generator's work, which neither the server nor the network does.
    private var start: Double?
    private var lastMove = -Double.infinity
    private var since = 0.0
    /// When the latest frame arrived (ms): the echo that follows it names the input it shows.
    private var lastFrame = -Double.infinity

    /// The drag's x for the next move: a triangle wave, so every move changes the frame.
    private var step = 0
    var nextX: Double {
        let phase = step % 200
        return 150 + Double(phase < 100 ? phase : 200 - phase)
    }

    /// Whether to queue a move now (times in ms on the generator's clock).
    mutating func wantsMove(now: Double) -> Bool {
        if state != .ready, state != .moveQueued, state != .pingDue, state != .pingQueued, now - since > Self.timeout {
            lost += 1
            state = .ready
        }
        guard state == .ready, now - lastMove >= Self.pairInterval, now - (lastAnswer ?? -.infinity) >= Self.idle
        else { return false }
        state = .moveQueued
        return true
    }

    mutating func moveSent(t: Double) {
        if let lastAnswer { idleBeforeMove.append(t - lastAnswer) }
        lastMove = t
        since = t
        step += 1
        start = nil
        state = .awaitingApplied(t: t)
    }

    /// The step in flight is handed to the socket at `now` (ms); called for every write of the
    /// connection, the first after the step was stamped is its own.
    mutating func written(now: Double) {
        switch state {
        case .awaitingApplied, .awaitingPong: if start == nil { start = now }
        default: break
        }
    }

    /// A frame arrived at `now` (ms).
    mutating func frame(now: Double) { lastFrame = now }

    /// The echo of `t` arrived, right after the frame that shows it: timed, if it was the move's.
    mutating func applied(t: Double) {
        guard case .awaitingApplied(let sent) = state, sent == t, let start, lastFrame >= start else { return }
        inputToFrame.append(lastFrame - start)
        lastAnswer = lastFrame
        state = .pingDue
    }

    /// How long (ms) until the next step is due, for the run's timer to wake for it exactly: the
    /// ping once its move's frame came, the next move once the pong did; else 1 (an answer may
    /// come at any time, and a late one is given up then).
    func untilNextStep(now: Double) -> Double {
        switch state {
        case .pingDue: max(0, (lastAnswer ?? now) + Self.idle - now)
        case .ready: max(0, lastMove + Self.pairInterval - now, (lastAnswer ?? now) + Self.idle - now)
        default: 1
        }
    }

    /// Whether to queue the ping now (`idle` after its move's frame).
    mutating func wantsPing(now: Double) -> Bool {
        guard state == .pingDue, now - (lastAnswer ?? -.infinity) >= Self.idle else { return false }
        state = .pingQueued
        return true
    }

    mutating func pingSent(t: Double) {
        if let lastAnswer { idleBeforePing.append(t - lastAnswer) }
        since = t
        start = nil
        state = .awaitingPong(t: t)
    }

    mutating func pong(t: Double, now: Double) {
        guard case .awaitingPong(let sent) = state, sent == t, let start else { return }
        echo.append(now - start)
        lastAnswer = now
        state = .ready
    }
}
