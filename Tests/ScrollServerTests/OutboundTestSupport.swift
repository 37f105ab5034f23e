import Foundation
import ScrollCore
import Testing

@testable import ScrollServer

/// Headroom the queues under test reserve (any value works; lws's is the server's business).
let testHeadroom = 16

/// A room whose frames, semantics and presence are labels, so a transcript reads "bin:full#3".
final class FakeRoom: RoomFeed {
    private(set) var semanticsVersion = 1
    private(set) var semantics = SharedPayload(text: "semantics v1", headroom: testHeadroom)
    private(set) var semanticsPatch: SharedPayload?
    private(set) var presenceVersion = 1
    private(set) var presenceMessage = SharedPayload(text: "presence v1", headroom: testHeadroom)
    private var frames: [String: SharedFrame] = [:]

    init(seq: UInt32 = 1) { show(seq: seq) }

    /// The room has rendered frame `seq` for `theme`; `changed: false` when it looks like `seq − 1`.
    func show(seq: UInt32, changed: Bool = true, theme: Theme = .light) {
        let label = theme == .light ? "" : " \(theme.name)"
        frames[theme.name] = SharedFrame(
            seq: seq,
            full: SharedPayload(text: "full#\(seq)\(label)", headroom: testHeadroom),
            delta: SharedPayload(text: "delta#\(seq)\(label)", headroom: testHeadroom),
            changed: changed)
    }

    /// `patch`: the change also comes as a patch, "semantics v1→v2" (none when the widget list changed).
    func changeSemantics(patch: Bool = false) {
        semanticsVersion += 1
        semantics = SharedPayload(text: "semantics v\(semanticsVersion)", headroom: testHeadroom)
        let label = "semantics v\(semanticsVersion - 1)→v\(semanticsVersion)"
        semanticsPatch = patch ? SharedPayload(text: label, headroom: testHeadroom) : nil
    }

    func changePresence() {
        presenceVersion += 1
        presenceMessage = SharedPayload(text: "presence v\(presenceVersion)", headroom: testHeadroom)
    }

    func frame(theme: Theme) -> SharedFrame { frames[theme.name]! }
}

/// An events message whose text is "events LABEL", padded to `bytes` bytes when given.
func batch(_ label: String, bytes: Int? = nil) -> EventBatch {
    let text = "events \(label)"
    let padded = bytes.map { text + String(repeating: " ", count: max(0, $0 - text.utf8.count)) } ?? text
    return EventBatch(payload: SharedPayload(text: padded, headroom: testHeadroom))
}

func makeQueue(slowReader: SlowReaderRule = SlowReaderRule()) -> OutboundQueue {
    OutboundQueue(headroom: testHeadroom, slowReader: slowReader)
}

/// One line per writable callback: text as sent (errors the queue made itself as
/// "error <code>" or "fatal <code>", read from their JSON), binary as "bin:…".
func describe(_ action: OutboundAction) -> String {
    switch action {
    case .nothing:
        return "nothing"
    case .close(let code, let reason):
        return "close \(code) \(reason)"
    case .write(let payload, .binary):
        return "bin:" + payload.text
    case .write(let payload, .text):
        let json = try? JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any]
        guard let json, json["type"] as? String == "error", let code = json["code"] as? String else {
            return payload.text
        }
        return (json["fatal"] as? Bool == true ? "fatal " : "error ") + code
    }
}

/// What the client receives while the server keeps asking for writable callbacks (as it
/// does while `owesMore`); stops at a close, where the connection ends.
func drain(
    _ queue: inout OutboundQueue, room: FakeRoom?, theme: Theme = .light,
    sourceLocation: SourceLocation = #_sourceLocation
) -> [String] {
    var sent: [String] = []
    while queue.owesMore(renderingFrom: room, theme: theme) {
        guard sent.count < 2000 else {
            Issue.record("still wants writable after 2000 callbacks", sourceLocation: sourceLocation)
            break
        }
        let action = queue.next(from: room, theme: theme, now: 0)
        sent.append(describe(action))
        if case .close = action { break }
    }
    return sent
}
