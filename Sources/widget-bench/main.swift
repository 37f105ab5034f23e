// `make bench`'s counts (Benchmarks/bench runs this): bytes per frame while the ruler moves and
// for each widget, what an idle room sends, what fanning a frame out copies. The per-frame timings moved to
// package-benchmark and callgrind (Benchmarks/); the fan-out's stays here because Room is
// package-internal. `widget-bench fan-out N` only fans N delta frames out to 1,000 clients:
// callgrind counts its instructions (Benchmarks/bench).
import Foundation
import ScrollCore
import ScrollServer

let args = Array(CommandLine.arguments.dropFirst())
if args.first == "fan-out" {
    guard args.count == 2, let frames = Int(args[1]), frames >= 0 else {
        print("usage: widget-bench [fan-out FRAMES]")
        exit(2)
    }
    let fan = FanOut(clients: 1000)
    for _ in 0..<frames {
        fan.nextFrame()
        _ = fan.fanOut(fan.after, copying: false)
    }
    print("fan-out: \(frames) frames to \(fan.after.count) clients (\(fan.sink % 7))")
} else if args.isEmpty {
    printFlingBytes()
    printDragBytes()
    FanOut(clients: 1000).printFigures()
    printBytesPerWidget()
    printWatcherCost()
    printInputPathCost()
    printCacheIdle()
} else if args.first == "input-path",
    args.dropFirst().allSatisfy({ ["demo", "ruler", "--cold", "--memory"].contains($0) || (Int($0) ?? 0) > 0 }),
    args.filter({ $0 == "demo" || $0 == "ruler" }).count <= 1, args.filter({ $0.hasPrefix("--") }).count <= 1,
    args.compactMap({ Int($0) }).count <= 1
{
    let scene = args.dropFirst().first { $0 == "demo" || $0 == "ruler" } ?? "demo"
    let caches: InputPathCaches = args.contains("--memory") ? .memory : args.contains("--cold") ? .cold : .warm
    printInputPathCost(moves: args.dropFirst().compactMap { Int($0) }.first ?? 20_000, scene: scene, caches: caches)
} else if args == ["watcher"] {
    printWatcherCost()
} else if args == ["cache-idle"] {
    printCacheIdle()
} else {
    print(
        "usage: widget-bench [fan-out FRAMES | watcher | cache-idle | input-path [demo | ruler] [--cold | --memory] [STEPS]]"
    )
    exit(2)
}
