import ScrollCore

/// A room owned by another node as this node's clients of it read it (docs/CLUSTER.md,
/// "Relays"): the owner's frames, semantics and presence, kept as they arrive, in the same
/// bytes the owner's own clients get (but a semantics patch, made here). Service thread only.
package final class RelayedRoom: RoomFeed {
    package let name: String
    package private(set) var semanticsVersion = 0
    package private(set) var semantics: SharedPayload
    /// Made here from the owner's last two messages (the owner relays only full ones).
    package private(set) var semanticsPatch: SharedPayload?
    /// The widgets of the owner's last semantics message.
    private var lastSemantics = SemanticsMirror()
    package private(set) var presenceVersion = 0
    package private(set) var presenceMessage: SharedPayload
    /// By theme render key.
    private var frames: [String: SharedFrame] = [:]
    /// This node's clients of the room.
    package var members: [UInt64] = []
    private let headroom: Int
    /// Nothing yet: a frame numbered 0 is never due (a client's count starts at 0).
    private let noFrame: SharedFrame

    package init(name: String, headroom: Int) {
        self.name = name
        self.headroom = headroom
        let empty = SharedPayload([], headroom: headroom)
        semantics = empty
        presenceMessage = empty
        noFrame = SharedFrame(seq: 0, full: empty, delta: empty, changed: false)
    }

    package func frame(theme: Theme) -> SharedFrame { frames[theme.renderKey] ?? noFrame }

    /// What the owner sent; false for what is not about the whole room.
    @discardableResult
    package func take(_ message: RelayOutbound) -> Bool {
        switch message {
        case let .frame(theme, seq, changed, delta, full):
            frames[theme] = SharedFrame(
                seq: seq, full: SharedPayload(full, headroom: headroom),
                delta: SharedPayload(delta, headroom: headroom),
                changed: changed)
        case .semantics(let text):
            // The owner sends its message again to every newcomer: nothing changed.
            guard text != semantics.text else { return true }
            let before = lastSemantics.widgets
            lastSemantics.forget()
            lastSemantics.take(text: text)
            semanticsPatch = nil
            if let before, let after = lastSemantics.widgets,
                let patch = SemanticsPatch.message(from: before, to: after, full: text)
            {
                semanticsPatch = SharedPayload(text: patch, headroom: headroom)
            }
            semantics = SharedPayload(text: text, headroom: headroom)
            semanticsVersion += 1
        case .presence(let text):
            presenceMessage = SharedPayload(text: text, headroom: headroom)
            presenceVersion += 1
        case .events, .toClient, .closed:
            return false
        }
        return true
    }
}
