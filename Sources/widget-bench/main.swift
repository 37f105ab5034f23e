// Release-build benchmarks for DESIGN.md's budget: `make bench` (swift run -c release widget-bench).
// Medians over batches, all measured in this one run.
import Dispatch
import ScrollCore
import ScrollServer

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A scene whose ruler is being dragged: every frame differs.
func draggingScene() -> (Scene, (Int) -> Void) {
    let scene = DemoScene.make()
    let key = PointerKey(client: "bench", pointer: 1)
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 300, y: 214), clientTime: 0)), at: 0)
    return (
        scene,
        { i in
            let t = Double(i) / 60
            let x = 300 - Double(i % 400) * 0.7
            scene.apply(
                .pointer(PointerInput(phase: .move, key: key, position: Point(x: x, y: 214), clientTime: t)), at: t)
        }
    )
}

// 1. Build + encode one full-scene frame.
do {
    let (scene, step) = draggingScene()
    var encoder = FrameEncoder()
    var sink = 0
    let batch = 2000
    var perFrame: [Double] = []
    var i = 0
    for _ in 0..<40 {
        perFrame.append(
            seconds {
                for _ in 0..<batch {
                    i += 1
                    step(i)
                    let frame = encoder.encode(scene.render(theme: .light), time: scene.time)
                    sink &+= frame.full.count
                }
            } / Double(batch))
    }
    print(
        "frame build+encode (ruler dragging, full scene): median \(String(format: "%.2f", median(perFrame) * 1e6)) µs  [budget ≤ 20 µs]  (\(sink % 7))"
    )
}

// 2. Bytes per frame while the ruler moves (60 Hz fling), and when idle.
do {
    let scene = DemoScene.make()
    var encoder = FrameEncoder()
    let key = PointerKey(client: "bench", pointer: 1)
    var t = 0.0
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 330, y: 214), clientTime: t)), at: t)
    for k in 1...10 {
        t += 0.008
        scene.apply(
            .pointer(
                PointerInput(phase: .move, key: key, position: Point(x: 330 - 16 * Double(k), y: 214), clientTime: t)),
            at: t)
    }
    scene.apply(.pointer(PointerInput(phase: .up, key: key, position: Point(x: 170, y: 214), clientTime: t)), at: t)
    _ = encoder.encode(scene.render(theme: .light), time: t)
    var sizes: [Double] = []
    while scene.isAnimating {
        t += 1.0 / 60
        scene.advance(to: t)
        let frame = encoder.encode(scene.render(theme: .light), time: t)
        sizes.append(Double(frame.delta.count))
    }
    let idle = encoder.encode(scene.render(theme: .light), time: t + 1)
    print(
        "bytes per delta frame during a 2000 pt/s fling: median \(Int(median(sizes))) B over \(sizes.count) frames  [budget ≤ 256 B]"
    )
    print("idle: \(idle.changedLayers) changed layers → the server sends nothing")
}

// 2b. Bytes per frame during a slow drag: 2 pt per 60 Hz frame (120 pt/s) for 4 s.
do {
    let scene = DemoScene.make()
    var encoder = FrameEncoder()
    let key = PointerKey(client: "bench", pointer: 1)
    var t = 0.0
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 330, y: 214), clientTime: t)), at: t)
    _ = encoder.encode(scene.render(theme: .light), time: t)
    var sizes: [Double] = []
    for k in 1...240 {
        t += 1.0 / 60
        let x = 330 - 2 * Double(k)  // the captured pointer may leave the ruler: it still drags it
        scene.apply(
            .pointer(PointerInput(phase: .move, key: key, position: Point(x: x, y: 214), clientTime: t)), at: t)
        sizes.append(Double(encoder.encode(scene.render(theme: .light), time: t).delta.count))
    }
    print(
        "bytes per delta frame during a 120 pt/s drag: median \(Int(median(sizes))) B, max \(Int(sizes.max() ?? 0)) B over \(sizes.count) frames  [budget ≤ 256 B]"
    )
}

// 3. Physics: a fling's closed-form position is cheap enough to sample per frame per widget.
do {
    var axis = ScrollAxis(offset: 0, snap: SnapRule(step: 10))
    axis.touchDown(at: 0, clientTime: 0, time: 0)
    for k in 1...10 { axis.touchMove(to: -20 * Double(k), clientTime: 0.008 * Double(k), time: 0.008 * Double(k)) }
    axis.touchUp(clientTime: 0.08, time: 0.08)
    var acc = 0.0
    let n = 1_000_000
    let s = seconds { for k in 0..<n { acc += axis.offset(at: 0.08 + Double(k % 3000) / 1000) } }
    print("ScrollAxis.offset(at:) during a fling: \(String(format: "%.1f", s / Double(n) * 1e9)) ns  (\(Int(acc) % 7))")
}

// 4. Send many: one frame fanned out to 1,000 clients through the send policy, each client
// taking writable callbacks until its queue wants no more (as publish and flush do).
// "before" adds what the old write() did: copy each message into one send buffer per write;
// "after" hands the room's buffer itself to the write, as the server now does. Two groups of
// clients take the same frames in alternating order, so both see the same machine load.
// lws_write is stood in for by writing a header into the headroom and reading the bytes' ends.
do {
    let clients = 1000
    let pre = SharedPayload.lwsHeadroom
    let (scene, step) = draggingScene()
    let room = Room(name: "bench", scene: scene, origin: 0)
    /// Holds its queue as the server's ClientConnection does.
    final class Client { var outbound = OutboundQueue(headroom: SharedPayload.lwsHeadroom, maxQueuedEvents: 1024) }
    let before = (0..<clients).map { _ in Client() }, after = (0..<clients).map { _ in Client() }
    let sendBuffer = UnsafeMutableRawPointer.allocate(byteCount: pre + 64 * 1024, alignment: 16)
    defer { sendBuffer.deallocate() }
    var sink = 0
    var i = 0

    func lwsWrite(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) {
        (bytes - 4).update(repeating: 0x82, count: 4)
        sink &+= Int(bytes[0]) &+ Int(bytes[count - 1])
    }

    /// One frame to every client of `group`: seconds per client, bytes copied and sent in all.
    func fanOut(_ group: [Client], copying: Bool) -> (seconds: Double, copied: Int, sent: Int) {
        var copied = -group.reduce(0) { $0 + $1.outbound.bytesCopied }, sent = 0
        let s = seconds {
            for client in group {
                repeat {
                    guard case .write(let payload, _) = client.outbound.next(from: room, theme: .light) else {
                        continue
                    }
                    sent += payload.count
                    if copying {
                        precondition(payload.count <= 64 * 1024)
                        let into = (sendBuffer + pre).assumingMemoryBound(to: UInt8.self)
                        into.update(from: payload.bytes, count: payload.count)
                        copied += payload.count
                        lwsWrite(into, payload.count)
                    } else {
                        lwsWrite(payload.bytes, payload.count)
                    }
                } while client.outbound.wantsWritable(room: room, theme: .light)
            }
        }
        copied += group.reduce(0) { $0 + $1.outbound.bytesCopied }
        return (s / Double(group.count), copied, sent)
    }

    // Every client has had semantics and its first frame.
    _ = fanOut(before, copying: true)
    _ = fanOut(after, copying: false)
    for (label, apart) in [("delta frames (clients keep up)", 1), ("full frames (clients a frame behind)", 2)] {
        var times: [[Double]] = [[], []], copied = [0, 0], sent = [0, 0]
        let frames = 400
        for k in 0..<frames {
            for _ in 0..<apart { i += 1; step(i); _ = room.advance(now: Double(i) / 60) }
            _ = room.frame(theme: .light)  // rendered once per room, before the fan-out
            for g in (k % 2 == 0 ? [0, 1] : [1, 0]) {
                let r = fanOut(g == 0 ? before : after, copying: g == 0)
                times[g].append(r.seconds); copied[g] += r.copied; sent[g] += r.sent
            }
        }
        let n = Double(frames * clients)
        print(
            "fan-out to \(clients) clients, \(label), \(Int(Double(sent[1]) / n)) B written per frame per client  (\(sink % 7)):"
        )
        for (g, name) in ["before (copy per write)", "after (shared buffer)  "].enumerated() {
            print(
                "  \(name): \(Int(Double(copied[g]) / n)) B copied per frame per client, median \(String(format: "%.1f", median(times[g]) * 1e9)) ns per client"
            )
        }
    }
}

// 5. Bytes per frame for each widget while it moves (issue 13, item 4).
printBytesPerWidget()
