/// What a replay ends with: the scene as it stands and every event it emitted.
public struct ReplayResult {
    public let scene: Scene
    public let events: [SceneEvent]
    /// Action lines the scene refused (no such widget or action, bad arguments): the server
    /// would have answered `bad_action` and not applied them, so the replay does the same.
    public let refused: [Refusal]

    public struct Refusal: Sendable, Equatable {
        public var entry: TraceEntry
        public var message: String
    }

    public init(scene: Scene, events: [SceneEvent], refused: [Refusal] = []) {
        self.scene = scene; self.events = events; self.refused = refused
    }

    /// Final scene time (s).
    public var time: Double { scene.time }

    /// Final value events, in order.
    public var finalEvents: [SceneEvent] {
        events.filter { if case .value(_, _, true) = $0.kind { true } else { false } }
    }

    /// `{"time": s, "widgets": {...}, "events": [SceneEvent.json, ...]}` — `widget-replay`'s
    /// output — and `"refused": [{"line": {...}, "error": "..."}]` when any line was refused.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("time", .number(time)),
            ("widgets", Self.widgetsJSON(scene.semantics)),
            ("events", .array(events.map(\.json))),
        ]
        if !refused.isEmpty {
            fields.append(
                ("refused", .array(refused.map { .object([("line", $0.entry.json), ("error", .string($0.message))]) })))
        }
        return .object(fields)
    }

    /// `{"<id>": {"value": valueNow, "text": valueText}, ...}` in scene order; widgets
    /// without a numeric value get only "text" (and those without either, `{}`).
    public static func widgetsJSON(_ semantics: [Semantics]) -> JSONValue {
        .object(
            semantics.map { s in
                var fields: [(String, JSONValue)] = []
                if let v = s.valueNow { fields.append(("value", .number(v))) }
                if let text = s.valueText { fields.append(("text", .string(text))) }
                return (s.id, .object(fields))
            })
    }
}
