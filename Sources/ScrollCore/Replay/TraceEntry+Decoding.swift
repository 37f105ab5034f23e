/// Reading one trace line (docs/TRACES.md, "Format"), with the wire's field rules.
extension TraceEntry {
    /// Times on the room's timeline: ms, 0 … 10¹¹.
    static let time = FieldRule<Double, Double>.milliseconds(upTo: TraceParser.maxTime)
    static let kind = FieldRule<String, Kind>.oneOf(Kind.allCases.map { ($0.rawValue, $0) })
    static let clientName = FieldRule<String, String>.string(length: 1...64)

    init(fields c: JSONFields) throws(FieldError) {
        let type = try c.required("type", Self.kind)
        self.init(t: try c.required("t", Self.time), type: type)
        at = try c.optional("at", Self.time)
        client = try c.optional("client", Self.clientName) ?? Self.defaultClient
        let kind = type.rawValue
        switch type {
        case .down, .move, .up, .cancel:
            x = try c.required("x", FieldRules.coordinate, on: kind)
            y = try c.required("y", FieldRules.coordinate, on: kind)
            pointer = try c.optional("pointer", FieldRules.pointerID) ?? Self.defaultPointer
        case .wheel:
            x = try c.required("x", FieldRules.coordinate, on: kind)
            y = try c.required("y", FieldRules.coordinate, on: kind)
            dx = try c.optional("dx", FieldRules.wheelDelta) ?? 0
            dy = try c.optional("dy", FieldRules.wheelDelta) ?? 0
            deltaMode = try c.optional("deltaMode", FieldRules.deltaMode) ?? 0
        case .key:
            key = try c.required("key", FieldRules.keyName, on: kind)
            widget = try c.optional("widget", FieldRules.widgetID)
        case .action:
            widget = try c.optional("widget", FieldRules.widgetID)
            action = try c.required("action", FieldRules.actionName, on: kind)
            args = try c.optional("args", FieldRules.actionArgs) ?? [:]
        case .leave:
            break
        }
    }
}
