import ScrollCore

/// The text messages the load generator writes besides trace lines (docs/PROTOCOL.md,
/// "Client → server"); `t` is the client's own clock in ms.
enum ClientText {
    static func hello(room: String, scene: String, theme: String = "light", reducedMotion: Bool = false) -> String {
        var fields: [(String, JSONValue)] = [
            ("type", "hello"), ("protocol", .number(Double(ProtocolVersion.current))),
            ("room", .string(room)), ("scene", .string(scene)),
        ]
        if theme != "light" { fields.append(("theme", .string(theme))) }
        if reducedMotion { fields.append(("reducedMotion", .bool(true))) }
        return JSONValue.object(fields).serialized
    }

    static func ping(t: Double) -> String { JSONValue.object([("type", "ping"), ("t", .number(t))]).serialized }

    static func hover(x: Double, y: Double, t: Double) -> String {
        JSONValue.object([("type", "hover"), ("x", .number(x)), ("y", .number(y)), ("t", .number(t))]).serialized
    }

    static func hoverOut(t: Double) -> String {
        JSONValue.object([("type", "hover"), ("out", .bool(true)), ("t", .number(t))]).serialized
    }

    static func preferences(theme: String, reducedMotion: Bool) -> String {
        JSONValue.object([
            ("type", "preferences"), ("theme", .string(theme)), ("reducedMotion", .bool(reducedMotion)),
        ]).serialized
    }
}
