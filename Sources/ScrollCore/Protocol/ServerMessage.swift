/// JSON text messages from the server (docs/PROTOCOL.md, "Server → client").
/// Frames are binary (FrameEncoder); everything else is one of these.
public enum ServerMessage {
    /// Every message's `type`: a page must handle each (BrowserClientTests checks the page's list).
    public enum Kind: String, Sendable, CaseIterable {
        case welcome, error, applied, pong, events, presence, semantics
    }

    /// A message of `kind`: its `type`, then `fields`.
    static func message(_ kind: Kind, _ fields: [(String, JSONValue)]) -> String {
        JSONValue.object([("type", .string(kind.rawValue))] + fields).serialized
    }

    public static func welcome(client: String, color: Color, room: String, scene: Scene, theme: String) -> String {
        message(
            .welcome,
            [
                ("protocol", .number(Double(ProtocolVersion.current))),
                ("client", .string(client)), ("color", .string(color.hexString)), ("room", .string(room)),
                (
                    "scene",
                    .object([
                        ("name", .string(scene.name)), ("width", .number(scene.size.width)),
                        ("height", .number(scene.size.height)),
                    ])
                ),
                ("theme", .string(theme)),
            ])
    }

    public static func error(_ e: ProtocolError, fatal: Bool = false) -> String {
        message(
            .error,
            [
                ("code", .string(e.code.rawValue)), ("message", .string(e.message)), ("fatal", .bool(fatal)),
                ("protocol", .number(Double(ProtocolVersion.current))),
            ])
    }

    /// The newest input of this client's that the room has applied (its own `t`, ms): sent
    /// straight after the first frame drawn after it, so the page can time input to frame; with
    /// `follow` while the client's pointer holds a widget whose layer follows it (prediction).
    /// Sent after every input's frame: written straight out, as `message` writes it (the names
    /// need no escaping), without building its JSON first.
    public static func applied(t: Double, follow: LayerFollow? = nil) -> String {
        applied(t: t, followField: follow.map(appliedFollowField))
    }

    /// `applied` with its `follow` field written already (`appliedFollowField`): a drag's every
    /// move says the same follow, and a sender keeps its text instead of writing four numbers
    /// again each move.
    /// `text`: `t` as the client wrote it (`ClientMessage.parse(_:timeText:)`), written as it came.
    public static func applied(t: Double, text: NumberText? = nil, followField: String?) -> String {
        String(unsafeUninitializedCapacity: appliedCapacity(followField: followField)) {
            writeApplied(t: t, text: text, followField: followField, into: UnsafeMutableRawBufferPointer($0))
        }
    }

    /// At most how long `applied` is with this follow field.
    public static func appliedCapacity(followField: String?) -> Int {
        appliedStart.count + NumberText.capacity + (followField?.utf8.count ?? 0) + 1
    }

    /// `applied` written into `out` (at least `appliedCapacity` bytes): its length. Bytes
    /// straight into the buffer a sender writes, not a string built and copied: it follows every
    /// input's frame. `t` is written as `text`, else formatted (`JSONValue.format`).
    public static func writeApplied(
        t: Double, text: NumberText?, followField: String?, into out: UnsafeMutableRawBufferPointer
    ) -> Int {
        var at = 0
        func put(_ bytes: UnsafeRawBufferPointer) {
            UnsafeMutableRawBufferPointer(rebasing: out[at..<at + bytes.count]).copyMemory(from: bytes)
            at += bytes.count
        }
        appliedStart.withUnsafeBytes(put)
        if let text {
            text.withBytes(put)
        } else {
            var formatted = JSONValue.format(t)
            formatted.withUTF8 { put(UnsafeRawBufferPointer($0)) }
        }
        var field = followField
        field?.withUTF8 { put(UnsafeRawBufferPointer($0)) }
        out[at] = UInt8(ascii: "}")
        return at + 1
    }

    private static let appliedStart = Array(#"{"type":"applied","t":"#.utf8)

    /// `,"follow":{…}`, as `applied` writes it.
    public static func appliedFollowField(_ follow: LayerFollow) -> String {
        #","follow":{"layer":"# + JSONValue.format(Double(follow.layer)) + #","axis":""#
            + follow.follow.axis.rawValue + #"","ratio":"# + JSONValue.format(follow.follow.ratio) + #","min":"#
            + JSONValue.format(follow.follow.range.lowerBound) + #","max":"#
            + JSONValue.format(follow.follow.range.upperBound) + "}"
    }

    public static func pong(t: Double) -> String {
        message(.pong, [("t", .number(t))])
    }

    /// Within `EventBudget`: a haptic that stands for several crossings says how many (`count`).
    /// `cancel`: a widget's events sent ahead and stamped after `after` are void; `ahead`: events
    /// still to come, each to be played at its time (docs/PROTOCOL.md, "Events ahead"; the
    /// server bounds how many). Each is left out when empty.
    public static func events(
        _ events: [SceneEvent], ahead: [SceneEvent] = [], cancel: [(widget: String, after: Double)] = []
    ) -> String {
        let items = EventBudget.bounded(events).map { event, count -> JSONValue in
            guard count > 1, case .object(var fields) = event.json else { return event.json }
            fields.append(("count", .number(Double(count))))
            return .object(fields)
        }
        var fields: [(String, JSONValue)] = []
        if !cancel.isEmpty {
            let voids = cancel.map { JSONValue.object([("widget", .string($0.widget)), ("after", .number($0.after))]) }
            fields.append(("cancel", .array(voids)))
        }
        fields.append(("events", .array(items)))
        if !ahead.isEmpty { fields.append(("ahead", .array(runs(ahead)))) }
        return message(.events, fields)
    }

    /// Everyone in the room, in join order, with their colours.
    /// The first `Presence.listed` clients in join order and how many there are: the message
    /// stays small however many join (each client knows its own colour from `welcome`).
    public static func presence(_ presence: Presence) -> String {
        message(
            .presence,
            [
                (
                    "clients",
                    .array(
                        presence.members.prefix(Presence.listed).map {
                            .object([("id", .string($0.client)), ("color", .string($0.color.hexString))])
                        })
                ),
                ("count", .number(Double(presence.members.count))),
            ])
    }

    public static func semantics(_ widgets: [Semantics]) -> String {
        semantics(json: widgets.map(\.json))
    }

    /// Every widget's entry, each its `Semantics.json`.
    public static func semantics(json widgets: [JSONValue]) -> String {
        message(.semantics, [("widgets", .array(widgets))])
    }

    /// Only what changed since the message before (`SemanticsPatch`).
    public static func semantics(changed: [JSONValue]) -> String {
        message(.semantics, [("changed", .array(changed))])
    }
}

extension SceneEvent.Kind {
    /// An event's `type` on the wire: a page must handle each (BrowserClientTests checks the page's rules).
    public enum Name: String, Sendable, CaseIterable {
        case value, moved, selected, added, deleted, haptic, announce
    }

    public var name: Name {
        switch self {
        case .value: .value
        case .moved: .moved
        case .selected: .selected
        case .added: .added
        case .deleted: .deleted
        case .haptic: .haptic
        case .announcement: .announce
        }
    }
}

extension SceneEvent {
    /// Also the event format of `widget-replay`'s output.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("t", .number(time)), ("widget", .string(widget)), ("type", .string(kind.name.rawValue)),
        ]
        switch kind {
        case let .value(v, text, final):
            fields += [("value", .number(v)), ("text", .string(text)), ("final", .bool(final))]
        case let .moved(value):
            fields += [("value", .number(Double(value)))]
        case let .selected(index, name), let .added(index, name), let .deleted(index, name):
            fields += [("index", .number(Double(index))), ("name", .string(name))]
        case let .haptic(style):
            fields += [("style", .string(style))]
        case let .announcement(text):
            fields += [("text", .string(text))]
        }
        return .object(fields)
    }
}

extension Semantics {
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(id)), ("role", .string(role)), ("label", .string(label)),
            ("rect", .array([.number(frame.x), .number(frame.y), .number(frame.width), .number(frame.height)])),
        ]
        if let valueNow { fields.append(("valueNow", .number(valueNow))) }
        if let valueMin { fields.append(("valueMin", .number(valueMin))) }
        if let valueMax { fields.append(("valueMax", .number(valueMax))) }
        if let valueText { fields.append(("valueText", .string(valueText))) }
        fields += [("keys", .array(keys.map { .string($0) })), ("actions", .array(actions.map { .string($0) }))]
        if let set {
            let setter: [(String, JSONValue)] = [
                ("action", .string(set.action)), ("argument", .string(set.argument)),
                ("takes", .string(set.takes.rawValue)),
            ]
            fields.append(("set", .object(setter)))
        }
        if !options.isEmpty { fields.append(("options", .array(options.map(\.json)))) }
        if let catches { fields.append(("catches", .object([("layer", .number(Double(catches)))]))) }
        return .object(fields)
    }
}

extension SemanticOption {
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("label", .string(label)), ("selected", .bool(selected)),
            ("rect", .array([.number(frame.x), .number(frame.y), .number(frame.width), .number(frame.height)])),
        ])
    }
}
