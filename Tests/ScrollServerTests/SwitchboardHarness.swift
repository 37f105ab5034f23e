import Foundation
import Logging
import ScrollCore
import Synchronization

@testable import ScrollServer

/// The switchboard's manual clock and wire (ScrollServer/Clock/ManualClock.swift), by the names
/// the tests give them.
typealias FakeClock = ManualClock
typealias FakeWire = ManualWire

/// A switchboard on a fake clock and wire, with clients that read (or do not) when the test says.
final class BoardHarness {
    let clock = FakeClock()
    let wire: FakeWire
    let log = CapturedLog()
    let board: Switchboard

    init(
        slowReader: SlowReaderRule = SlowReaderRule(), maxRooms: Int = 256, record: String? = nil,
        store: (any RoomStore)? = nil, scheduler: (any Scheduler)? = nil, cluster: ClusterMembership? = nil
    ) throws {
        var config = ServerConfig(publicDirectory: "/nonexistent")
        config.slowReader = slowReader
        config.maxRooms = maxRooms
        config.recordDirectory = record
        wire = FakeWire(clock: clock)
        board = try Switchboard(
            config: config, logger: log.logger, store: store, clock: clock.clock, scheduler: scheduler,
            headroom: testHeadroom, cluster: cluster)
        board.wire = wire
    }

    /// Client `id` connects and says hello to `room` (the ruler scene); what it is sent is read.
    func join(_ id: UInt64, room: String = "r", scene: String = "ruler") {
        board.connected(id)
        send(id, ClientMessage.hello(.init(room: room, scene: scene)).encoded())
    }

    func send(_ id: UInt64, _ text: String) { board.received(id, text) }

    /// What client `id` is sent while it keeps reading: one line per message (`frame#seq` or
    /// `delta#seq` for frames, the `type` of text messages, `fatal CODE` / `close CODE` at the end).
    func read(_ id: UInt64) -> [String] {
        var sent: [String] = []
        while board.owesMore(id), sent.count < 10_000 {
            let action = board.next(id)
            switch action {
            case .write(let payload, let kind):
                sent.append(Self.label(payload, kind))
            case .close(let code, _):
                sent.append("close \(code)")
                return sent
            case .nothing:
                sent.append("nothing")
            }
        }
        return sent
    }

    /// The one write client `id` is given at its next chance to write, as `read` labels messages.
    func write(_ id: UInt64) -> [String] {
        var batch: [OutboundMessage] = []
        board.nextBatch(id, into: &batch)
        return batch.map { Self.label($0.payload, $0.kind) }
    }

    private static func label(_ payload: SharedPayload, _ kind: MessageKind) -> String {
        guard kind == .text else {
            let frame = try? DecodedFrame(Array(UnsafeBufferPointer(start: payload.bytes, count: payload.count)))
            return frame.map { ($0.isDelta ? "delta#" : "frame#") + "\($0.seq)" } ?? "bad frame"
        }
        let json = try? JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any]
        let type = json?["type"] as? String ?? "?"
        guard type == "error", let code = json?["code"] as? String else { return type }
        return (json?["fatal"] as? Bool == true ? "fatal " : "error ") + code
    }

    /// What client `id`'s events messages said while it read everything owed: haptic clicks
    /// counted (a haptic standing for several counts as many), the last `moved` value, the
    /// largest events message, and whether the connection was closed.
    func readEvents(_ id: UInt64) -> (haptics: Int, lastMoved: Int?, largestMessage: Int, closed: Bool) {
        var result = (haptics: 0, lastMoved: Int?.none, largestMessage: 0, closed: false)
        // As the page keeps them (Public/js/events-ahead.js): what happened, and what was sent
        // ahead and not withdrawn, each (time, widget, type, value or count).
        var known: [(t: Double, widget: String, type: String, n: Int, ahead: Bool)] = []
        func note(_ event: [String: Any], at t: Double, ahead: Bool) {
            guard let widget = event["widget"] as? String, let type = event["type"] as? String else { return }
            let n = type == "haptic" ? (event["count"] as? Int) ?? 1 : (event["value"] as? Int) ?? 0
            known.append((t, widget, type, n, ahead))
        }
        loop: while board.owesMore(id) {
            switch board.next(id) {
            case .write(let payload, .text):
                let json = try? JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any]
                guard json?["type"] as? String == "events" else {
                    if json?["type"] as? String == "error" { result.closed = true }
                    continue
                }
                result.largestMessage = max(result.largestMessage, payload.count)
                if ProcessInfo.processInfo.environment["DUMPEV"] != nil { print("EV", payload.text.prefix(600)) }
                for void in json?["cancel"] as? [[String: Any]] ?? [] {
                    let widget = void["widget"] as? String, after = void["after"] as? Double ?? .infinity
                    known.removeAll { $0.ahead && $0.widget == widget && $0.t > after }
                }
                for event in json?["events"] as? [[String: Any]] ?? [] {
                    note(event, at: event["t"] as? Double ?? 0, ahead: false)
                }
                for event in ServerMessage.aheadEvents(json?["ahead"]) {
                    note(event, at: event["t"] as? Double ?? 0, ahead: true)
                }
            case .close:
                result.closed = true
                break loop
            default:
                continue
            }
        }
        for event in known.enumerated().sorted(by: { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }) {
            switch event.element.type {
            case "haptic": result.haptics += event.element.n
            case "moved": result.lastMoved = event.element.n
            default: break
            }
        }
        return result
    }

    /// The value of the newest final `value` event client `id` has been sent (reading what is owed).
    func lastFinalValue(_ id: UInt64) -> Double? {
        var last: Double?
        while board.owesMore(id) {
            guard case .write(let payload, .text) = board.next(id) else { continue }
            let json = try? JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any]
            for event in json?["events"] as? [[String: Any]] ?? []
            where event["type"] as? String == "value" && event["final"] as? Bool == true {
                last = event["value"] as? Double
            }
        }
        return last
    }

    /// The housekeeping timer as the bridge runs it, for `seconds` of fake time (1 s apart).
    func runSweeps(for seconds: Double) {
        var left = seconds
        while left > 1e-9 {
            let step = min(Switchboard.sweepInterval, left)
            clock.advance(by: step)
            left -= step
            board.sweep()
        }
    }

    /// A pointer message on the ruler (scene y 150…278), `t` in ms.
    func pointer(_ id: UInt64, _ phase: PointerPhase, x: Double, y: Double = 214, t: Double) {
        send(id, ClientMessage.pointer(.init(phase: phase, id: 1, x: x, y: y, t: t)).encoded())
    }

    /// The ruler's `setValue` action: it glides there and settles.
    static func setValue(_ kg: Double, t: Double) -> String {
        ClientMessage.action(.init(widget: nil, action: "setValue", args: ["value": .number(kg)], t: t)).encoded()
    }

    /// A quick swipe left over the ruler (or at `y`): it flings on after the lift.
    func fling(_ id: UInt64, y: Double = 214) {
        var t = 1000.0
        pointer(id, .down, x: 300, y: y, t: t)
        for i in 1...6 {
            clock.advance(by: 0.016)
            t += 16
            pointer(id, .move, x: 300 - 40 * Double(i), y: y, t: t)
        }
        pointer(id, .up, x: 60, y: y, t: t)
    }

    /// The picker's middle (`join(scene: "picker")`): a fling there glides for over 3 s, one track.
    static let pickerY = PickerScene.pickerFrame.midY

    /// The tick timer fires if it is due by `time`: the clock moves to it and the board ticks.
    /// Returns whether it fired.
    @discardableResult
    func fireTick(by time: Double = .infinity) -> Bool {
        guard let due = wire.tickDue, due <= time else { return false }
        wire.tickDue = nil
        clock.advance(by: max(0, due - clock.now))
        board.tick()
        return true
    }

    /// The frame clock (60 Hz) while anything moves, as the bridge runs it, at most `limit` ticks;
    /// after each tick the clients in `readers` read. Returns the ticks run.
    @discardableResult
    func runTicks(readers: [UInt64], limit: Int = 600, onRead: (UInt64, [String]) -> Void = { _, _ in }) -> Int {
        var ticks = 0
        while ticks < limit, fireTick() {
            ticks += 1
            for id in readers { onRead(id, read(id)) }
        }
        return ticks
    }
}

/// The directory as a session joins through it, for session transcripts.
struct DirectoryJoining: RoomJoining {
    let directory: RoomDirectory
    func join(_ room: String, scene: String?, client: UInt64, now: Double) -> JoinAnswer {
        JoinAnswer(directory.join(room, scene: scene, client: client, now: now, wall: 1000).0)
    }
}
