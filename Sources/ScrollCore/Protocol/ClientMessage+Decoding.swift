/// Reading client messages (docs/PROTOCOL.md, "Client → server"): every refusal has a
/// stable code and names the field at fault, e.g. `pointer.x must be a finite number
/// within ±1000000`. Unknown fields are ignored.
extension ClientMessage {
    public static func parse(_ text: String) -> Result<ClientMessage, ProtocolError> {
        var timeText: NumberText?
        return parse(text, timeText: &timeText)
    }

    /// `parse`, and for a pointer message the text of its newest sample's `t` as the client wrote
    /// it, when it fits a `NumberText`: `applied` echoes it as it came, not formatted again from
    /// the number. Nil for any other message.
    public static func parse(_ text: String, timeText: inout NumberText?) -> Result<ClientMessage, ProtocolError> {
        timeText = nil
        guard text.utf8.count <= ClientMessageLimits.maxBytes else {
            return .failure(
                ProtocolError(
                    .tooLarge, "message is \(text.utf8.count) bytes; the limit is \(ClientMessageLimits.maxBytes)"))
        }
        guard let read = readPointerAndTime(text) else { return parseWhole(text) }
        timeText = read.time
        return .success(read.message)
    }

    /// `parse` of any message: its JSON tree, then its fields (`readPointer` is a shortcut).
    package static func parseWhole(_ text: String) -> Result<ClientMessage, ProtocolError> {
        do {
            return .success(try JSONObjectDecoder.decode(from: text, ClientMessage.init(fields:)))
        } catch {
            switch error {
            case .notJSON: return .failure(ProtocolError(.badJSON, "message is not valid JSON"))
            case .notObject: return .failure(ProtocolError(.badMessage, "message must be a JSON object"))
            case .field(let e): return .failure(ProtocolError(.badMessage, e.message(naming: e.field)))
            case .other(let e as ProtocolError): return .failure(e)
            case .other(let e): return .failure(ProtocolError(.badMessage, "\(e)"))
            }
        }
    }

    init(fields c: JSONFields) throws {
        let type: String
        do {
            type = try c.required("type", FieldRules.text)
        } catch {
            throw FieldError(field: "message.type", error.problem)
        }
        do {
            switch type {
            case "hello": self = .hello(try Hello(c))
            case "pointer": self = .pointer(try Pointer(c))
            case "wheel": self = .wheel(try Wheel(c))
            case "key":
                self = .key(
                    key: try c.required("key", FieldRules.keyName),
                    widget: try c.optional("widget", FieldRules.widgetID), t: try c.required("t", FieldRules.clientTime)
                )
            case "action": self = .action(try Action(c))
            case "ping": self = .ping(t: try c.required("t", FieldRules.clientTime))
            case "preferences":
                self = .preferences(
                    theme: try c.optional("theme", FieldRules.themeName),
                    reducedMotion: try c.optional("reducedMotion", FieldRule.bool))
            case "hover":
                let out = try c.optional("out", FieldRule.bool) ?? false
                let at =
                    out
                    ? nil
                    : Point(
                        x: try c.required("x", FieldRules.coordinate), y: try c.required("y", FieldRules.coordinate))
                self = .hover(at: at, t: try c.required("t", FieldRules.clientTime))
            default: throw ProtocolError(.unknownType, "unknown message type \"\(type.excerpt(40))\"")
            }
        } catch let e as FieldError {
            throw FieldError(field: "\(type).\(e.field)", e.problem)
        }
    }
}

extension ClientMessage.Hello {
    init(_ c: JSONFields) throws(FieldError) {
        version = try c.required("protocol", FieldRule.integer(in: 0...1_000_000))
        room = try c.optional("room", FieldRule.identifier) ?? ClientMessageLimits.defaultRoom
        theme = try c.optional("theme", FieldRules.themeName) ?? Theme.light.name
        reducedMotion = try c.optional("reducedMotion", FieldRule.bool) ?? false
        scene = try c.optional("scene", FieldRule.identifier)
    }
}

extension ClientMessage.Action {
    init(_ c: JSONFields) throws(FieldError) {
        widget = try c.optional("widget", FieldRules.widgetID)
        action = try c.required("action", FieldRules.actionName)
        args = try c.optional("args", FieldRules.actionArgs) ?? [:]
        t = try c.required("t", FieldRules.clientTime)
    }
}

extension ClientMessage.Pointer {
    init(_ c: JSONFields) throws(FieldError) {
        phase = try c.required("phase", FieldRules.pointerPhase)
        id = try c.required("id", FieldRules.pointerID)
        pointerType = try c.optional("pointerType", FieldRules.pointerType) ?? "mouse"
        samples = [
            ClientMessage.Sample(
                x: try c.required("x", FieldRules.coordinate), y: try c.required("y", FieldRules.coordinate),
                t: try c.required("t", FieldRules.clientTime))
        ]
        guard phase == .move, let coalesced = try c.optional("coalesced", FieldRules.coalesced) else { return }
        samples = try coalesced.enumerated().map { i, xyt throws(FieldError) in
            guard let sample = FieldRules.sample.validate(xyt) else {
                throw FieldError(field: "coalesced[\(i)]", .invalid(FieldRules.sample.expectation))
            }
            return sample
        }
    }
}

extension ClientMessage.Wheel {
    init(_ c: JSONFields) throws(FieldError) {
        x = try c.required("x", FieldRules.coordinate)
        y = try c.required("y", FieldRules.coordinate)
        dx = try c.required("dx", FieldRules.wheelDelta)
        dy = try c.required("dy", FieldRules.wheelDelta)
        deltaMode = try c.optional("deltaMode", FieldRules.deltaMode) ?? 0
        t = try c.required("t", FieldRules.clientTime)
    }
}
