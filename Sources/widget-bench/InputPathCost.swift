import Dispatch
import ScrollCore
import ScrollServer

/// Written before each step when cold: a global, so the writes are not optimised away.
nonisolated(unsafe) private var flushed: [UInt8] = []

/// How much of the caches a step finds cold.
enum InputPathCaches {
    /// As the step before left them.
    case warm
    /// 16 MiB written before each step: the private caches and most of the shared one.
    case cold
    /// 128 MiB written before each step: nothing of the server's left in any cache, as the live
    /// server finds them after an idle on this VM (docs/BENCHMARKS.md, "Input → frame").
    case memory

    var flushBytes: Int {
        switch self {
        case .warm: 0
        case .cold: 16 << 20
        case .memory: 128 << 20
        }
    }
}

/// The server's own work for one pointer move of a drag, and for one ping, without sockets: the
/// real switchboard on a manual clock, one client holding the scene's ruler as widget-load's
/// latency probe does (a move every 2.2 ms, the frame clock's ticks in between, a ping between
/// moves). Timed: the message received, parsed, carried out (a move applied, rendered, encoded)
/// and everything it owes the client taken for writing. What input → frame adds to the echo
/// beyond the difference of the two is transport (docs/BENCHMARKS.md).
func printInputPathCost(moves: Int = 20_000, scene: String = "demo", caches: InputPathCaches = .warm) {
    guard let bench = try? WatcherBench(scene: scene, watching: false) else { return }
    flushed = [UInt8](repeating: 0, count: caches.flushBytes)
    let y = DemoScene.rulerFrame.midY
    bench.pointer(.down, x: 250, y: y)
    var ticks: [(type: String, bytes: Int)] = []
    var moveSpent: [Double] = [], pingSpent: [Double] = []
    var bytes = 0
    moveSpent.reserveCapacity(moves)
    pingSpent.reserveCapacity(moves)
    /// `text` received and what it owes written, after the caches were made as `caches` says.
    func timed(_ text: String, _ step: (String) -> Int) -> (µs: Double, bytes: Int) {
        for i in stride(from: 0, to: flushed.count, by: 64) { flushed[i] &+= 1 }
        let start = DispatchTime.now().uptimeNanoseconds
        let written = step(text)
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1000, written)
    }
    // Apart, so that `valgrind --tool=callgrind --cache-sim=yes --toggle-collect=…` counts each
    // step's cache lines alone (docs/BENCHMARKS.md, "Input → frame").
    // (Each counts its steps, or the compiler merges the two into one.)
    var stepsTaken = (moves: 0, pings: 0)
    @inline(never) func moveStep(_ text: String) -> Int {
        stepsTaken.moves += 1
        return InputPathStep.carryOut(text, on: bench.board)
    }
    @inline(never) func pingStep(_ text: String) -> Int {
        stepsTaken.pings += 1
        return InputPathStep.carryOut(text, on: bench.board)
    }
    // A code path's first run pays what a live server paid once, long before (the runtime's
    // metadata and conformance caches filled): one period of the drag first, neither timed nor
    // counted (not through `moveStep` or `pingStep`).
    let warmUp = 200
    for k in -warmUp..<moves {
        bench.run(until: bench.now + 0.0011, into: &ticks)
        _ = bench.read(WatcherBench.driver)
        let ping = ClientMessage.ping(t: bench.now * 1000).encoded()
        if k < 0 {
            _ = InputPathStep.carryOut(ping, on: bench.board)
        } else {
            pingSpent.append(timed(ping, pingStep).µs)
        }
        bench.run(until: bench.now + 0.0011, into: &ticks)
        ticks.removeAll(keepingCapacity: true)
        _ = bench.read(WatcherBench.driver)
        let phase = (k + warmUp) % 200
        let move = ClientMessage.pointer(
            .init(phase: .move, id: 1, x: 150 + Double(phase < 100 ? phase : 200 - phase), y: y, t: bench.now * 1000)
        ).encoded()
        if k < 0 {
            _ = InputPathStep.carryOut(move, on: bench.board)
            continue
        }
        let spent = timed(move, moveStep)
        moveSpent.append(spent.µs)
        bytes += spent.bytes
    }
    precondition(stepsTaken == (moves, moves))
    func p99(_ xs: [Double]) -> Double { xs.sorted()[Int(Double(xs.count - 1) * 0.99)] }
    let flush = caches == .warm ? "" : ", \(caches.flushBytes >> 20) MiB written before each"
    print(
        "input path, one client dragging the \(scene) scene's ruler (\(moves) moves and pings, no sockets\(flush)): "
            + String(
                format: "move median %.2f µs, p99 %.2f µs, %d B written a move; ping median %.2f µs, p99 %.2f µs; "
                    + "move / ping %.2f",
                median(moveSpent), p99(moveSpent), bytes / moves, median(pingSpent), p99(pingSpent),
                median(moveSpent) / median(pingSpent)))
}

enum InputPathStep {
    /// The driver's `text` received, and everything it then owes taken for writing: its bytes.
    static func carryOut(_ text: String, on board: Switchboard) -> Int {
        var written = 0
        board.received(WatcherBench.driver, text)
        while board.owesMore(WatcherBench.driver) {
            guard case .write(let payload, _) = board.next(WatcherBench.driver) else { break }
            written += payload.count
        }
        return written
    }
}
