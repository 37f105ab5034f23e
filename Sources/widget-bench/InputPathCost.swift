import Dispatch
import ScrollCore
import ScrollServer

/// Written before each move when cold: a global, so the writes are not optimised away.
nonisolated(unsafe) private var flushed: [UInt8] = []

/// The server's own work for one pointer move of a drag, without sockets: the real switchboard
/// on a manual clock, one client holding the scene's ruler as widget-load's latency probe does (a
/// move every 2.2 ms, the frame clock's ticks in between). Timed: the move received, parsed,
/// applied, rendered and encoded, and everything it owes the client taken for writing. What
/// input → frame adds to the echo beyond this is transport (docs/BENCHMARKS.md). `cold`: the
/// caches are flushed before each move (16 MiB written), as the server's are after sleeping
/// between a page's moves while other processes ran.
func printInputPathCost(moves: Int = 20_000, scene: String = "demo", cold: Bool = false) {
    guard let bench = try? WatcherBench(scene: scene, watching: false) else { return }
    flushed = [UInt8](repeating: 0, count: cold ? 16 << 20 : 0)
    let y = DemoScene.rulerFrame.midY
    bench.pointer(.down, x: 250, y: y)
    var ticks: [(type: String, bytes: Int)] = []
    var spent: [Double] = []
    var bytes = 0
    spent.reserveCapacity(moves)
    for k in 0..<moves {
        bench.run(until: bench.now + 0.0022, into: &ticks)
        ticks.removeAll(keepingCapacity: true)
        _ = bench.read(WatcherBench.driver)
        let phase = k % 200
        let move = ClientMessage.pointer(
            .init(phase: .move, id: 1, x: 150 + Double(phase < 100 ? phase : 200 - phase), y: y, t: bench.now * 1000)
        ).encoded()
        for i in stride(from: 0, to: flushed.count, by: 64) { flushed[i] &+= 1 }
        let start = DispatchTime.now().uptimeNanoseconds
        bench.board.received(WatcherBench.driver, move)
        while bench.board.owesMore(WatcherBench.driver) {
            guard case .write(let payload, _) = bench.board.next(WatcherBench.driver) else { break }
            bytes += payload.count
        }
        spent.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
    let sorted = spent.sorted()
    let p99 = sorted[Int(Double(sorted.count - 1) * 0.99)]
    print(
        "input path, one client dragging the \(scene) scene's ruler (\(moves) moves, no sockets"
            + (cold ? ", caches flushed before each" : "") + "): "
            + String(format: "median %.2f µs, p99 %.2f µs, %d B written a move", median(spent), p99, bytes / moves))
}
