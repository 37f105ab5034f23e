import Dispatch
import Glibc

/// How much of a working set the size of a pointer move's (~1,700 cache lines, 128 KiB here)
/// this machine keeps in cache while the process waits, in ns per line read back. A chase
/// through the lines in a shuffled order, so that each read waits for the one before and no
/// prefetcher guesses the next: what a cold input path pays per line. After spinning, nothing
/// of this process ran but the loop; after sleeping, the core was free to the host. Where a
/// 1.1 ms spin already costs more than no wait, something outside the process (the host, its
/// other guests) took the private caches (docs/BENCHMARKS.md, "Input → frame: the machine").
func printCacheIdle(rounds: Int = 101) {
    let lines = 2048
    let stride = 64
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: lines * stride, alignment: stride)
    defer { buffer.deallocate() }
    var dice = SystemRandomNumberGenerator()
    let order = Array(0..<lines).shuffled(using: &dice)
    for i in 0..<lines {
        buffer.storeBytes(
            of: buffer + order[(i + 1) % lines] * stride, toByteOffset: order[i] * stride,
            as: UnsafeMutableRawPointer.self)
    }
    let start = buffer + order[0] * stride
    let flush = UnsafeMutableRawPointer.allocate(byteCount: 128 << 20, alignment: 4096)
    defer { flush.deallocate() }

    func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    /// ns per line to follow the whole chain once.
    func chase() -> Double {
        let t0 = now()
        var p = start
        for _ in 0..<lines { p = p.load(as: UnsafeMutableRawPointer.self) }
        let spent = Double(now() - t0) / Double(lines)
        // The last pointer read is kept, or the chain is optimised away.
        if p == UnsafeMutableRawPointer(bitPattern: 1) { print("") }
        return spent
    }
    func spin(_ ns: UInt64) {
        let end = now() + ns
        while now() < end {}
    }
    func sleep(_ ns: Int) {
        var t = timespec(tv_sec: 0, tv_nsec: ns)
        nanosleep(&t, nil)
    }
    let waits: [(name: String, wait: () -> Void)] = [
        ("none", {}),
        ("spinning 10 µs", { spin(10_000) }),
        ("spinning 1.1 ms", { spin(1_100_000) }),
        ("sleeping 1.1 ms", { sleep(1_100_000) }),
        ("sleeping 16.7 ms", { sleep(16_700_000) }),
        ("128 MiB written", { memset(flush, Int32(truncatingIfNeeded: now()), 128 << 20) }),
    ]
    var spent = Array(repeating: [Double](), count: waits.count)
    // Interleaved, so that a change in the machine's load falls on every wait alike.
    for _ in 0..<rounds {
        for (k, w) in waits.enumerated() {
            _ = chase()
            w.wait()
            spent[k].append(chase())
        }
    }
    let figures = zip(waits, spent).map { w, s in String(format: "%@ %.1f", w.name, median(s)) }
    print(
        "cache lines of a 128 KiB working set read back after a wait, ns per line (median of \(rounds)): "
            + figures.joined(separator: "; "))
}
