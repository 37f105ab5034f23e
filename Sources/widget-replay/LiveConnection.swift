import Foundation
import ScrollCore
import WebSocketClient

/// One trace client's WebSocket: hello, then input; keeps what the server reports.
final class LiveConnection {
    let client: String
    private let url: String
    private let socket: WebSocketClient
    /// Set when any widget's final value event arrives (the caller resets it).
    var finalSeen = false
    /// The scene's size, from the welcome.
    private(set) var sceneSize = Size(width: 0, height: 0)
    private(set) var semantics: [Semantics]?
    /// The last full semantics message with the patches since applied.
    private var knownSemantics = SemanticsMirror()
    private var layerOrder: [UInt16] = []
    private var held: [UInt16: HeldLayer] = [:]
    /// Room time of the latest frame, and when it came.
    private var frameTime = 0.0
    private var frameArrival = ContinuousClock.now

    init(url: String, room: String, scene: String, theme: Theme, client: String) throws {
        self.client = client
        self.url = url
        do {
            socket = try WebSocketClient(url: url, subprotocol: ProtocolVersion.subprotocol, timeout: 5)
        } catch {
            throw Failure.io("\(url): \(error)")
        }
        try send(text: ClientMessage.hello(.init(room: room, theme: theme.name, scene: scene)).encoded())
        try awaitWelcome()
    }

    /// The room's time now, as the latest frame and the time since it came tell (loopback: its
    /// delay is nothing to speak of): what a page paints the held layers at.
    var roomTime: Double {
        let since = frameArrival.duration(to: .now)
        return frameTime + Double(since.components.seconds) + Double(since.components.attoseconds) * 1e-18
    }

    /// The layers the latest frame left held, in z-order, at room time `time` (tracks read there).
    func layers(at time: Double) -> [(id: UInt16, ops: [UInt8], offset: Point)] {
        layerOrder.compactMap { id in held[id].map { (id, $0.ops, $0.offset(at: time)) } }
    }

    /// Sends the line's message (a `leave` line is no message: the caller closes instead).
    func send(_ entry: TraceEntry) throws {
        if let message = entry.clientMessage { try send(text: message.encoded()) }
    }

    func close() { socket.close() }

    /// Handles every message that arrives within `wait` seconds (0: only what is there).
    func drain(wait: Double) throws {
        var timeout = wait
        while let message = try receive(timeout: timeout) {
            handle(message)
            timeout = 0
        }
    }

    private func awaitWelcome() throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            guard let message = try receive(timeout: 0.1) else { continue }
            if case .text(let text) = message, let object = Self.object(text) {
                if object["type"] as? String == "welcome" {
                    let scene = object["scene"] as? [String: Any]
                    sceneSize = Size(
                        width: (scene?["width"] as? NSNumber)?.doubleValue ?? 0,
                        height: (scene?["height"] as? NSNumber)?.doubleValue ?? 0)
                    return
                }
                // A refused hello (unknown scene, version) is final: say why at once.
                if object["type"] as? String == "error", object["fatal"] as? Bool == true {
                    throw Failure.io("\(url): \(object["message"] as? String ?? text)")
                }
            }
            handle(message)
        }
        throw Failure.io("\(url): no welcome from the server within 5 s")
    }

    private func send(text: String) throws {
        do { try socket.send(text: text) } catch { throw Failure.io("\(url): \(error)") }
    }

    private func receive(timeout: Double) throws -> WebSocketClient.Message? {
        do { return try socket.receive(timeout: timeout) } catch { throw Failure.io("\(url): \(error)") }
    }

    private func handle(_ message: WebSocketClient.Message) {
        switch message {
        case .binary(let bytes):
            guard let frame = try? DecodedFrame(bytes) else { return }
            var next: [UInt16: HeldLayer] = [:]
            for layer in frame.layers {
                next[layer.id] = layer.applied(to: held[layer.id])
            }
            layerOrder = frame.layers.map(\.id)
            held = next
            frameTime = frame.time
            frameArrival = .now
        case .text(let text):
            guard let object = Self.object(text) else { return }
            switch object["type"] as? String {
            case "events":
                for case let event as [String: Any] in object["events"] as? [Any] ?? []
                where event["type"] as? String == "value"
                    && event["final"] as? Bool == true
                {
                    finalSeen = true
                }
            case "semantics":
                guard knownSemantics.take(text: text), let full = knownSemantics.message.flatMap(Self.object) else {
                    return
                }
                semantics = (full["widgets"] as? [Any] ?? []).compactMap { Self.semantics($0 as? [String: Any]) }
            case "error":
                warn("server (client \(client)): \(object["message"] as? String ?? text)")
            default:
                break
            }
        }
    }

    private static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// The fields `ReplayResult.widgetsJSON` reads; the rest of Semantics.json is not needed.
    private static func semantics(_ o: [String: Any]?) -> Semantics? {
        guard let o, let id = o["id"] as? String else { return nil }
        return Semantics(
            id: id, role: o["role"] as? String ?? "", label: o["label"] as? String ?? "",
            frame: Rect(x: 0, y: 0, width: 0, height: 0),
            valueNow: (o["valueNow"] as? NSNumber)?.doubleValue, valueText: o["valueText"] as? String)
    }
}
