/// Writing client messages as the page sends them (docs/PROTOCOL.md, "Client → server"): what
/// the load generator, live replay and the tests send. `type` first, then the fields in the
/// table's order; a field at its documented default is left out, as the recorder leaves out
/// a trace line's. `parse` reads the text back as the same message.
extension ClientMessage {
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = []
        switch self {
        case .hello(let h):
            fields = [("type", "hello"), ("protocol", .number(Double(h.version)))]
            if h.room != ClientMessageLimits.defaultRoom { fields.append(("room", .string(h.room))) }
            if h.theme != Theme.light.name { fields.append(("theme", .string(h.theme))) }
            if h.reducedMotion { fields.append(("reducedMotion", true)) }
            if let scene = h.scene { fields.append(("scene", .string(scene))) }
        case .pointer(let p):
            fields = [("type", "pointer"), ("phase", .string(p.phase.rawValue)), ("id", .number(Double(p.id)))]
            // x, y, t are the newest sample; a move of several carries them all in `coalesced`.
            if let newest = p.samples.last {
                fields += [("x", .number(newest.x)), ("y", .number(newest.y)), ("t", .number(newest.t))]
            }
            if p.pointerType != "mouse" { fields.append(("pointerType", .string(p.pointerType))) }
            if p.samples.count > 1 {
                fields.append(
                    ("coalesced", .array(p.samples.map { .array([.number($0.x), .number($0.y), .number($0.t)]) })))
            }
        case .wheel(let w):
            fields = [
                ("type", "wheel"), ("x", .number(w.x)), ("y", .number(w.y)), ("dx", .number(w.dx)),
                ("dy", .number(w.dy)),
            ]
            if w.deltaMode != 0 { fields.append(("deltaMode", .number(Double(w.deltaMode)))) }
            fields.append(("t", .number(w.t)))
        case let .key(key, widget, t):
            fields = [("type", "key"), ("key", .string(key))]
            if let widget { fields.append(("widget", .string(widget))) }
            fields.append(("t", .number(t)))
        case .action(let a):
            fields = [("type", "action")]
            if let widget = a.widget { fields.append(("widget", .string(widget))) }
            fields.append(("action", .string(a.action)))
            if !a.args.isEmpty { fields.append(("args", .sorted(a.args))) }
            fields.append(("t", .number(a.t)))
        case let .hover(at, t):
            fields = [("type", "hover")]
            if let at {
                fields += [("x", .number(at.x)), ("y", .number(at.y))]
            } else {
                fields.append(("out", true))
            }
            fields.append(("t", .number(t)))
        case let .preferences(theme, reducedMotion):
            fields = [("type", "preferences")]
            if let theme { fields.append(("theme", .string(theme))) }
            if let reducedMotion { fields.append(("reducedMotion", .bool(reducedMotion))) }
        case .ping(let t):
            fields = [("type", "ping"), ("t", .number(t))]
        }
        return .object(fields)
    }

    /// The message as one WebSocket text message.
    public func encoded() -> String { json.serialized }
}
