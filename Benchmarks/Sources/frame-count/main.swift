import Foundation
// Runs N units of a workload and exits: `valgrind --tool=callgrind frame-count WORKLOAD N` counts
// its instructions, and two values of N give the instructions per unit without the setup
// (Benchmarks/bench). Units: whole frames (step, render, encode) of a FrameWorkload, or
// decodes of the typical pointer move. `--report` prints which layers changed instead.
import FrameWorkloads
import ScrollCore

let args = CommandLine.arguments.dropFirst()
let report = args.contains("--report")
let operands = args.filter { $0 != "--report" }
let workloads = FrameWorkload.names + ["decode-pointer"]
guard operands.count == 2, workloads.contains(operands.first!), let count = Int(operands.last!), count >= 0 else {
    print("usage: frame-count [--report] (\(workloads.joined(separator: "|"))) COUNT")
    exit(2)
}

if operands.first == "decode-pointer" {
    var sink = 0
    for _ in 0..<count {
        if case .success(.pointer(let p)) = ClientMessage.parse(typicalPointerMove) { sink &+= p.samples.count }
    }
    print("decode-pointer: \(count) messages, \(sink) samples")
} else if report {
    let (changed, medianDelta) = FrameWorkload.named(operands.first!)!.layerChanges(frames: count)
    for (id, n) in changed where n > 0 { print("\(id): changed in \(n) of \(count) frames") }
    print("delta frame: median \(medianDelta) B")
} else {
    let workload = FrameWorkload.named(operands.first!)!
    var sink = 0
    for _ in 0..<count { sink &+= workload.next().delta.count }
    print("\(workload.name): \(count) frames, \(sink) bytes")
}
