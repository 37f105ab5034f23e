import Foundation
import Logging
import ScrollCore
import ScrollServer

/// What one client watching another's gesture receives, through the real switchboard on a
/// manual clock (no sockets, no waiting: every figure is exact): the messages and bytes from the
/// release to the rest of a fling, and the frames a second during a 60 Hz drag.
final class WatcherBench {
    private let time = ManualClock()
    private let wire: ManualWire
    let board: Switchboard
    static let driver: UInt64 = 1, watcher: UInt64 = 2

    /// `watching`: false leaves the driver alone in its room.
    init(scene: String, watching: Bool = true) throws {
        var logger = Logger(label: "watcher-bench")
        logger.logLevel = .critical
        wire = ManualWire(clock: time)
        board = try Switchboard(
            config: ServerConfig(publicDirectory: "/nonexistent"), logger: logger, clock: time.clock)
        board.wire = wire
        for id in watching ? [Self.driver, Self.watcher] : [Self.driver] {
            board.connected(id)
            board.received(id, ClientMessage.hello(.init(room: "watch", scene: scene)).encoded())
            _ = read(id)
        }
    }

    var now: Double { time.now }

    /// Everything `id` is owed now: (type, bytes) per message ("frame" for binary).
    func read(_ id: UInt64) -> [(type: String, bytes: Int)] {
        var got: [(String, Int)] = []
        while board.owesMore(id) {
            guard case .write(let payload, let kind) = board.next(id) else { break }
            if kind == .binary {
                got.append(("frame", payload.count))
            } else {
                let json = try? JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any]
                got.append((json?["type"] as? String ?? "?", payload.count))
            }
        }
        return got
    }

    /// The driver's pointer (page time in ms is the clock's).
    func pointer(_ phase: PointerPhase, x: Double, y: Double) {
        board.received(
            Self.driver, ClientMessage.pointer(.init(phase: phase, id: 1, x: x, y: y, t: now * 1000)).encoded())
        _ = read(Self.driver)
    }

    /// The driver's action on widget `widget`.
    func action(_ name: String, args: [String: JSONValue], on widget: String) {
        board.received(
            Self.driver,
            ClientMessage.action(.init(widget: widget, action: name, args: args, t: now * 1000)).encoded())
        _ = read(Self.driver)
    }

    /// Moves the clock to `t`, firing the frame clock on the way; the watcher reads after each tick.
    func run(until t: Double, into got: inout [(type: String, bytes: Int)]) {
        while let due = wire.tickDue, due <= t {
            wire.tickDue = nil
            time.advance(by: max(0, due - now))
            board.tick()
            got += read(Self.watcher)
            _ = read(Self.driver)
        }
        time.advance(by: max(0, t - now))
    }

    /// Runs the frame clock until the room rests (at most `limit` s).
    func runToRest(limit: Double = 10, into got: inout [(type: String, bytes: Int)]) {
        let end = now + limit
        while let due = wire.tickDue, due <= end { run(until: due, into: &got) }
    }
}

/// "N messages, B bytes: type count (bytes), …".
private func summary(_ got: [(type: String, bytes: Int)]) -> String {
    let kinds = Dictionary(grouping: got, by: \.type).mapValues { ($0.count, $0.reduce(0) { $0 + $1.bytes }) }
    let detail = kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.0) (\($0.value.1) B)" }
    return "\(got.count) messages, \(got.reduce(0) { $0 + $1.bytes }) B: \(detail.joined(separator: ", "))"
}

/// The watcher's cost of a fling (2,000 pt/s: 10 moves of 16 pt 8 ms apart, as widget-load's)
/// in each widget's own scene, and of a 60 Hz drag of the ruler.
func printWatcherCost() {
    print("what a watcher receives (switchboard on a manual clock, 60 Hz ticks)")
    let flings: [(scene: String, y: Double)] = [
        ("ruler", DemoScene.rulerFrame.midY), ("picker", PickerScene.pickerFrame.midY),
        ("carousel", CarouselScene.carouselFrame.midY),
    ]
    for fling in flings {
        guard let bench = try? WatcherBench(scene: fling.scene) else { continue }
        var got: [(type: String, bytes: Int)] = []
        bench.pointer(.down, x: 330, y: fling.y)
        for k in 1...10 {
            bench.run(until: bench.now + 0.008, into: &got)
            bench.pointer(.move, x: 330 - 16 * Double(k), y: fling.y)
        }
        bench.run(until: bench.now + 0.004, into: &got)
        got += bench.read(WatcherBench.watcher)
        got = []
        bench.pointer(.up, x: 170, y: fling.y)
        got += bench.read(WatcherBench.watcher)
        let released = bench.now
        bench.runToRest(into: &got)
        print(
            "  \(fling.scene) fling, release to rest (\(String(format: "%.2f", bench.now - released)) s): "
                + summary(got))
    }
    // The carousel's add (an item grows in before "Custom", which slides on) and delete (the
    // second item rises and fades, the rest close the gap), each from the action to the rest.
    for (label, action, args) in [
        ("add", "add", [String: JSONValue]()), ("delete", "delete", ["index": JSONValue.number(1)]),
    ] {
        guard let bench = try? WatcherBench(scene: "carousel") else { continue }
        var got: [(type: String, bytes: Int)] = []
        bench.action(action, args: args, on: "carousel")
        got += bench.read(WatcherBench.watcher)
        let start = bench.now
        bench.runToRest(into: &got)
        print("  carousel \(label), action to rest (\(String(format: "%.2f", bench.now - start)) s): \(summary(got))")
    }
    // A drag at 60 moves a second, 2 pt each, for 3 s: the watcher's frames a second.
    if let bench = try? WatcherBench(scene: "ruler") {
        var got: [(type: String, bytes: Int)] = []
        let y = DemoScene.rulerFrame.midY
        bench.pointer(.down, x: 330, y: y)
        _ = bench.read(WatcherBench.watcher)
        for k in 1...180 {
            bench.run(until: Double(k) / 60 + 1e-6, into: &got)
            bench.pointer(.move, x: 330 - 2 * Double(k), y: y)
            got += bench.read(WatcherBench.watcher)
        }
        let frames = got.filter { $0.type == "frame" }.count
        print("  ruler dragged at 60 moves a second for 3 s: the watcher gets \(frames / 3) frames a second")
    }
}
