import ScrollCore
import ScrollServer

/// One room's frames fanned out to many clients through the send policy, each client taking
/// writable callbacks until its queue wants no more (as publish and flush do). "before" adds
/// what the old write() did: copy each message into one send buffer per write; "after" hands
/// the room's buffer itself to the write, as the server does. lws_write is stood in for by
/// writing a header into the headroom and reading the bytes' ends.
final class FanOut {
    /// Holds its queue as the server's ClientConnection does, counting what it sends as the
    /// server's do (`/metrics`).
    final class Client {
        var outbound: OutboundQueue
        init(counters: ServerCounters) {
            outbound = OutboundQueue(headroom: SharedPayload.lwsHeadroom, counters: counters)
        }
    }

    let counters = ServerCounters(inputToFrame: MetricsExport().inputToFrame)

    let room: Room
    let before: [Client], after: [Client]
    private let step: (Int) -> Void
    private var i = 0
    private let sendBuffer: UnsafeMutableRawPointer
    private(set) var sink = 0

    init(clients: Int) {
        let (scene, step) = draggingScene()
        self.step = step
        room = Room(name: "bench", scene: scene, origin: 0)
        before = (0..<clients).map { [counters] _ in Client(counters: counters) }
        after = (0..<clients).map { [counters] _ in Client(counters: counters) }
        sendBuffer = UnsafeMutableRawPointer.allocate(byteCount: SharedPayload.lwsHeadroom + 64 * 1024, alignment: 16)
        // Every client has had semantics and its first frame.
        _ = fanOut(before, copying: true)
        _ = fanOut(after, copying: false)
    }

    deinit { sendBuffer.deallocate() }

    /// The ruler moves `frames` frames and the room renders its frame once, before any fan-out.
    func nextFrame(skipping frames: Int = 1) {
        for _ in 0..<frames { i += 1; step(i); _ = room.advance(now: Double(i) / 60) }
        _ = room.frame(theme: .light)
    }

    private func lwsWrite(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) {
        (bytes - 4).update(repeating: 0x82, count: 4)
        sink &+= Int(bytes[0]) &+ Int(bytes[count - 1])
    }

    /// One frame to every client of `group`: seconds per client, bytes copied and sent in all.
    func fanOut(_ group: [Client], copying: Bool) -> (seconds: Double, copied: Int, sent: Int) {
        let pre = SharedPayload.lwsHeadroom
        var copied = -group.reduce(0) { $0 + $1.outbound.bytesCopied }, sent = 0
        let s = seconds {
            for client in group {
                repeat {
                    guard case .write(let payload, _) = client.outbound.next(from: room, theme: .light, now: 0) else {
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
                } while client.outbound.owesMore(renderingFrom: room, theme: .light)
            }
        }
        copied += group.reduce(0) { $0 + $1.outbound.bytesCopied }
        return (s / Double(group.count), copied, sent)
    }

    /// Two groups of clients take the same frames in alternating order, so both see the same
    /// machine load.
    func printFigures(frames: Int = 400) {
        let clients = after.count
        for (label, apart) in [("delta frames (clients keep up)", 1), ("full frames (clients a frame behind)", 2)] {
            var times: [[Double]] = [[], []], copied = [0, 0], sent = [0, 0]
            for k in 0..<frames {
                nextFrame(skipping: apart)
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
}
