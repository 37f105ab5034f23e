/// What a replay ends with: the scene as it stands and every event it emitted.
public struct ReplayResult {
    public let scene: Scene
    public let events: [SceneEvent]

    /// Final scene time (s).
    public var time: Double { scene.time }

    /// Final value events, in order.
    public var finalEvents: [SceneEvent] {
        events.filter { if case .value(_, _, true) = $0.kind { true } else { false } }
    }

    /// `{"time": s, "widgets": {...}, "events": [SceneEvent.json, ...]}` — `widget-replay`'s output.
    public var json: JSONValue {
        .object([
            ("time", .number(time)),
            ("widgets", Self.widgetsJSON(scene.semantics)),
            ("events", .array(events.map(\.json))),
        ])
    }

    /// `{"<id>": {"value": valueNow, "text": valueText}, ...}` in scene order; widgets
    /// without a numeric value get only "text" (and those without either, `{}`).
    public static func widgetsJSON(_ semantics: [Semantics]) -> JSONValue {
        .object(semantics.map { s in
            var fields: [(String, JSONValue)] = []
            if let v = s.valueNow { fields.append(("value", .number(v))) }
            if let text = s.valueText { fields.append(("text", .string(text))) }
            return (s.id, .object(fields))
        })
    }
}
