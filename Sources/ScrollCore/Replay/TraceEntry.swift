/// One line of a pointer trace (docs/TRACES.md): one input, sent at client time `t` (ms)
/// and applied by the scene at `at` (ms on the room's timeline; `t` when absent).
///
/// The replayer applies it at scene time (at ?? t)/1000 s and uses t/1000 as the sample's
/// client time, so velocity comes from the same numbers the page sent.
public struct TraceEntry: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case down, move, up, cancel, wheel, key, action
        /// The client left the room (it disconnected): the pointers it held are let go.
        case leave

        /// The pointer phase of a pointer line; nil for the others.
        public var pointerPhase: PointerPhase? { PointerPhase(rawValue: rawValue) }
    }

    public static let defaultClient = "a"
    public static let defaultPointer = 1

    /// The client's timestamp (ms) moved onto the room's timeline by a per-client constant:
    /// what the velocity tracker reads. Non-decreasing per client.
    public var t: Double
    /// When the scene applied the input: ms on the room's timeline (its arrival). Absent
    /// (hand-written and older traces): `t`.
    public var at: Double?
    public var type: Kind
    /// Logical scene points (pointer and wheel lines).
    public var x: Double
    public var y: Double
    public var pointer: Int
    public var client: String
    /// Wheel deltas in the unit of `deltaMode` (0 points, 1 lines, 2 pages), as the wire sends them.
    public var dx: Double
    public var dy: Double
    public var deltaMode: Int
    /// Key lines: the DOM key name.
    public var key: String
    /// Key and action lines: the widget (nil: the scene's default focus, as in traces
    /// written before lines named it).
    public var widget: String?
    /// Action lines: the action and its arguments.
    public var action: String
    public var args: [String: JSONValue]

    public init(
        t: Double, at: Double? = nil, type: Kind, x: Double = 0, y: Double = 0,
        pointer: Int = TraceEntry.defaultPointer, client: String = TraceEntry.defaultClient,
        dx: Double = 0, dy: Double = 0, deltaMode: Int = 0,
        key: String = "", widget: String? = nil, action: String = "", args: [String: JSONValue] = [:]
    ) {
        self.t = t; self.at = at; self.type = type; self.x = x; self.y = y; self.pointer = pointer; self.client = client
        self.dx = dx; self.dy = dy; self.deltaMode = deltaMode; self.key = key; self.widget = widget
        self.action = action; self.args = args
    }

    /// Scene time (ms) at which the input is applied: `at`, or `t` without it.
    public var sceneTime: Double { at ?? t }

    public static func pointer(
        _ phase: PointerPhase, t: Double, at: Double? = nil, x: Double, y: Double,
        pointer: Int = defaultPointer, client: String = defaultClient
    ) -> TraceEntry {
        TraceEntry(t: t, at: at, type: Kind(rawValue: phase.rawValue)!, x: x, y: y, pointer: pointer, client: client)
    }

    public static func wheel(
        t: Double, at: Double? = nil, x: Double, y: Double, dx: Double, dy: Double,
        deltaMode: Int = 0, client: String = defaultClient
    ) -> TraceEntry {
        TraceEntry(t: t, at: at, type: .wheel, x: x, y: y, client: client, dx: dx, dy: dy, deltaMode: deltaMode)
    }

    public static func key(
        _ key: String, t: Double, at: Double? = nil, widget: String? = nil,
        client: String = defaultClient
    ) -> TraceEntry {
        TraceEntry(t: t, at: at, type: .key, client: client, key: key, widget: widget)
    }

    public static func leave(t: Double, at: Double? = nil, client: String = defaultClient) -> TraceEntry {
        TraceEntry(t: t, at: at, type: .leave, client: client)
    }

    public static func action(
        _ action: String, t: Double, at: Double? = nil, widget: String? = nil,
        args: [String: JSONValue] = [:], client: String = defaultClient
    ) -> TraceEntry {
        TraceEntry(t: t, at: at, type: .action, client: client, widget: widget, action: action, args: args)
    }

    /// The line as the recorder writes it: fixed field order (`t`, `at` when present, `type`,
    /// …), only the fields its type uses, defaults (client "a", deltaMode 0) left out. The
    /// recorder always knows the widget, so it writes one.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("t", .number(t))]
        if let at { fields.append(("at", .number(at))) }
        fields.append(("type", .string(type.rawValue)))
        switch type {
        case .down, .move, .up, .cancel:
            fields += [("x", .number(x)), ("y", .number(y)), ("pointer", .number(Double(pointer)))]
        case .wheel:
            fields += [("x", .number(x)), ("y", .number(y)), ("dx", .number(dx)), ("dy", .number(dy))]
            if deltaMode != 0 { fields.append(("deltaMode", .number(Double(deltaMode)))) }
        case .key:
            fields.append(("key", .string(key)))
            if let widget { fields.append(("widget", .string(widget))) }
        case .action:
            if let widget { fields.append(("widget", .string(widget))) }
            fields.append(("action", .string(action)))
            if !args.isEmpty { fields.append(("args", .sorted(args))) }
        case .leave:
            break
        }
        if client != Self.defaultClient { fields.append(("client", .string(client))) }
        return .object(fields)
    }

    /// One line of JSON, without the newline.
    public var jsonLine: String { json.serialized }
}
