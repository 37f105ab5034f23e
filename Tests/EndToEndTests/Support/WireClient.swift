import Foundation
import LoopbackTools
import ScrollCore
import WebSocketClient

/// A protocol-speaking test client: a WebSocket plus JSON helpers and waits with deadlines.
final class WireClient {
    let socket: WebSocketClient
    private(set) var received: [WebSocketClient.Message] = []
    /// Every JSON message received so far, in order (parsed once).
    private(set) var messages: [[String: Any]] = []
    /// Every frame received so far, and the layers they leave this client holding.
    private(set) var frames = FrameLog()
    /// `welcome.client` (empty until the welcome came).
    private(set) var id = ""
    /// `welcome.color` (empty until the welcome came).
    private(set) var color = ""
    /// The room's semantics as a page knows them: each widget by id, from the last full message
    /// with the patches since applied (nil before any full message since the welcome).
    private(set) var semantics: [String: [String: Any]]?
    private var semanticsMirror = SemanticsMirror()

    convenience init(
        _ server: ServerProcess, room: String? = "lobby", scene: String? = nil, hello: Bool = true
    ) throws {
        try self.init(url: server.wsURL, room: room, scene: scene, hello: hello)
    }

    /// A client of the server at `url` (a proxy in front of it, for instance).
    init(url: String, room: String? = "lobby", scene: String? = nil, hello: Bool = true) throws {
        socket = try WebSocketClient(url: url, subprotocol: ProtocolVersion.subprotocol)
        if hello {
            try send(.hello(.init(room: room ?? ClientMessageLimits.defaultRoom, scene: scene)))
            let welcome = try waitFor("welcome") { $0["type"] as? String == "welcome" }
            id = welcome["client"] as? String ?? ""
            color = welcome["color"] as? String ?? ""
        }
    }

    func send(_ message: ClientMessage) throws {
        try socket.send(text: message.encoded())
    }

    /// JSON no client should send (unknown types, wrong field types), for refusal tests.
    func send(raw object: [String: Any]) throws {
        try socket.send(text: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    func pointer(_ phase: PointerPhase, x: Double, y: Double = 214, t: Double, id: Int = 1) throws {
        try send(.pointer(.init(phase: phase, id: id, x: x, y: y, t: t)))
    }

    /// A slow drag from x0 by dx, held still 100 ms before lifting (no fling).
    func drag(from x0: Double, by dx: Double, steps: Int = 10, t0: Double = 1000) throws {
        try pointer(.down, x: x0, t: t0)
        for i in 1...steps { try pointer(.move, x: x0 + dx * Double(i) / Double(steps), t: t0 + 16 * Double(i)) }
        try pointer(.up, x: x0 + dx, t: t0 + 16 * Double(steps) + 100)
    }

    /// The next message within `timeout` s (nil: none came), kept in `received`; a frame is
    /// also applied to `frames` (which throws if it breaks the frame contract).
    func receiveOne(timeout: Double) throws -> WebSocketClient.Message? {
        guard let m = try socket.receive(timeout: max(timeout, 0)) else { return nil }
        received.append(m)
        if case .binary(let b) = m { try frames.apply(b) }
        if let o = Self.json(m) {
            // Another welcome (a cluster node took the room over) starts a new count of frames,
            // and semantics come whole again.
            if o["type"] as? String == "welcome", !messages.isEmpty {
                frames = FrameLog()
                semanticsMirror.forget()
                semantics = nil
            }
            if o["type"] as? String == "semantics", case .text(let text) = m, semanticsMirror.take(text: text) {
                semantics = semanticsMirror.message.flatMap { Self.json(.text($0)) }.map(Self.byID)
            }
            messages.append(o)
        }
        return m
    }

    /// Receives until a JSON message satisfies `match`; returns it.
    func waitFor(_ what: String, timeout: Double = 5, _ match: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let m = try receiveOne(timeout: deadline.timeIntervalSinceNow) else { break }
            if let o = Self.json(m), match(o) { return o }
        }
        throw WireError("no \(what) within \(timeout) s")
    }

    func waitForBinary(timeout: Double = 5) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let m = try receiveOne(timeout: deadline.timeIntervalSinceNow) else { break }
            if case .binary(let b) = m { return b }
        }
        throw WireError("no frame within \(timeout) s")
    }

    /// Receives until `done()` holds (checked before each message); throws naming `what` if it
    /// does not within `timeout` s.
    func receive(until what: String, timeout: Double = 5, _ done: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !done() {
            guard Date() < deadline, try receiveOne(timeout: deadline.timeIntervalSinceNow) != nil else {
                if try done() { return }
                throw WireError("no \(what) within \(timeout) s")
            }
        }
    }

    /// Receives until nothing comes for `quiet` s (the room is idle); throws if messages keep
    /// coming for `timeout` s.
    func receiveUntilIdle(quiet: Double = 0.4, timeout: Double = 6) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try receiveOne(timeout: quiet) != nil {
            guard Date() < deadline else { throw WireError("still receiving after \(timeout) s: the room is not idle") }
        }
    }

    /// The JSON object of a text message (nil for frames and non-objects).
    static func json(_ m: WebSocketClient.Message) -> [String: Any]? {
        guard case .text(let s) = m else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any]
    }

    /// The `clients` of every presence message received so far, in order: `(id, color)` pairs.
    var presences: [[Member]] {
        messages.filter { $0["type"] as? String == "presence" }.map { m in
            (m["clients"] as? [[String: Any]] ?? []).map {
                Member(id: $0["id"] as? String ?? "?", color: $0["color"] as? String ?? "?")
            }
        }
    }

    /// The `count` of every presence message received so far, in order (how many are in the room).
    var presenceCounts: [Int] {
        messages.filter { $0["type"] as? String == "presence" }.map { ($0["count"] as? Int) ?? -1 }
    }

    /// The kind of each message received so far, in order: its JSON `type`, or "frame".
    var kinds: [String] {
        received.map { m in
            if case .binary = m { return "frame" }
            return Self.json(m)?["type"] as? String ?? "?"
        }
    }

    struct Member: Equatable, CustomStringConvertible {
        var id: String
        var color: String
        var description: String { "\(id) \(color)" }
    }

    /// Every event received so far as a page plays it (docs/PROTOCOL.md, "Events ahead"): those
    /// that came as they happened and those sent ahead, less what a `cancel` withdrew, in time
    /// order (one time's events in the order they came).
    func playedEvents() -> [[String: Any]] {
        var got: [(event: [String: Any], t: Double, ahead: Bool)] = []
        for m in messages where m["type"] as? String == "events" {
            for void in m["cancel"] as? [[String: Any]] ?? [] {
                let widget = void["widget"] as? String, after = void["after"] as? Double ?? .infinity
                got.removeAll { $0.ahead && $0.event["widget"] as? String == widget && $0.t > after }
            }
            for e in m["events"] as? [[String: Any]] ?? [] { got.append((e, e["t"] as? Double ?? -1, false)) }
            for e in ServerMessage.aheadEvents(m["ahead"]) { got.append((e, e["t"] as? Double ?? -1, true)) }
        }
        return got.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element.event)
    }

    /// Every `value` event of `widget` as a page plays it (`playedEvents`): `(value, final, t)`.
    func valueEvents(_ widget: String = "ruler") -> [(value: Double, final: Bool, t: Double)] {
        playedEvents().compactMap { e in
            guard e["widget"] as? String == widget, e["type"] as? String == "value", let v = e["value"] as? Double
            else { return nil }
            return (v, e["final"] as? Bool == true, e["t"] as? Double ?? -1)
        }
    }

    /// Each widget of the semantics as the next semantics message leaves them, by id.
    func nextSemantics() throws -> [String: [String: Any]] {
        _ = try waitFor("semantics") { $0["type"] as? String == "semantics" }
        return semantics ?? [:]
    }

    /// A full semantics message's widgets, by id.
    private static func byID(_ message: [String: Any]) -> [String: [String: Any]] {
        let widgets = message["widgets"] as? [[String: Any]] ?? []
        return Dictionary(
            widgets.compactMap { w in (w["id"] as? String).map { ($0, w) } }, uniquingKeysWith: { a, _ in a })
    }

    func waitForError(_ code: String) throws -> [String: Any] {
        try waitFor("error \(code)") { $0["type"] as? String == "error" && $0["code"] as? String == code }
    }

    /// Waits until the latest semantics give `widget` the value `value` (it may have come already).
    func waitForSemantics(_ widget: String, value: Double, timeout: Double = 5) throws {
        try waitForSemantics("\(widget) = \(value)", timeout: timeout) { $0[widget]?["valueNow"] as? Double == value }
    }

    /// Waits until the latest semantics (each widget by id) satisfy `condition` (they may have
    /// come already).
    func waitForSemantics(
        _ what: String, timeout: Double = 5, _ condition: @escaping ([String: [String: Any]]) -> Bool
    ) throws {
        if let semantics, condition(semantics) { return }
        _ = try waitFor("semantics: \(what)", timeout: timeout) { m in
            m["type"] as? String == "semantics" && semantics.map(condition) == true
        }
    }

    /// The next final value event of `widget`.
    func finalValue(_ widget: String = "ruler", timeout: Double = 5) throws -> Double {
        var value: Double?
        _ = try waitFor("final \(widget) value", timeout: timeout) { m in
            guard m["type"] as? String == "events", let events = m["events"] as? [[String: Any]] else { return false }
            for e in events where e["widget"] as? String == widget && e["final"] as? Bool == true {
                value = e["value"] as? Double
            }
            return value != nil
        }
        return value!
    }
}

struct WireError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
