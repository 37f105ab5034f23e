import Foundation

/// Messages from the page (docs/PROTOCOL.md, "Client → server"). Times `t` are the
/// client's own clock in milliseconds (`event.timeStamp`).
public enum ClientMessage: Sendable, Equatable {
    public struct Hello: Sendable, Equatable {
        public var version: Int
        public var room: String
        public var theme: String
        public var reducedMotion: Bool
    }
    public struct Sample: Sendable, Equatable {
        public var x: Double, y: Double, t: Double
    }
    public struct Pointer: Sendable, Equatable {
        public var phase: PointerPhase
        public var id: Int
        public var pointerType: String
        /// Every coalesced sample in order (one for down/up/cancel).
        public var samples: [Sample]
    }
    public struct Wheel: Sendable, Equatable {
        public var x: Double, y: Double, dx: Double, dy: Double, deltaMode: Int, t: Double
    }

    case hello(Hello)
    case pointer(Pointer)
    case wheel(Wheel)
    case key(key: String, widget: String, t: Double)
    case ping(t: Double)
}

public enum ClientMessageLimits {
    public static let maxBytes = 16 * 1024
    public static let maxCoalesced = 128
    /// Coordinates beyond this (pt) are nonsense, not a drag off the canvas.
    public static let maxCoordinate = 1_000_000.0
    public static let maxDelta = 100_000.0
    public static let roomPattern = "1–64 characters of A–Z, a–z, 0–9, _ or -"
    public static let defaultRoom = "lobby"
}

extension ClientMessage {
    /// Parses and validates one text message; every refusal names the field at fault.
    public static func parse(_ text: String) -> Result<ClientMessage, ProtocolError> {
        guard text.utf8.count <= ClientMessageLimits.maxBytes else {
            return .failure(ProtocolError(.tooLarge, "message is \(text.utf8.count) bytes; the limit is \(ClientMessageLimits.maxBytes)"))
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
        } catch {
            return .failure(ProtocolError(.badJSON, "message is not valid JSON"))
        }
        guard let fields = object as? [String: Any] else {
            return .failure(ProtocolError(.badMessage, "message must be a JSON object"))
        }
        do {
            return .success(try decode(Fields(fields)))
        } catch let e as ProtocolError {
            return .failure(e)
        } catch {
            return .failure(ProtocolError(.badMessage, "\(error)"))
        }
    }

    private static func decode(_ f: Fields) throws -> ClientMessage {
        let type = try f.string("type")
        switch type {
        case "hello":
            let room = try f.optionalString("room") ?? ClientMessageLimits.defaultRoom
            guard isValidRoom(room) else {
                throw ProtocolError(.badMessage, "hello.room must be \(ClientMessageLimits.roomPattern)")
            }
            let theme = try f.optionalString("theme") ?? "light"
            guard Theme.named(theme) != nil else {
                throw ProtocolError(.badMessage, "hello.theme must be one of \(Theme.all.map(\.name).joined(separator: ", "))")
            }
            return .hello(Hello(version: try f.int("protocol", in: 0...1_000_000), room: room, theme: theme,
                                reducedMotion: try f.optionalBool("reducedMotion") ?? false))
        case "pointer":
            let phaseName = try f.string("phase")
            guard let phase = PointerPhase(rawValue: phaseName) else {
                throw ProtocolError(.badMessage, "pointer.phase must be down, move, up or cancel, not \"\(phaseName)\"")
            }
            var samples = [Sample(x: try f.coordinate("x"), y: try f.coordinate("y"), t: try f.time("t"))]
            if phase == .move, let raw = f.raw["coalesced"] {
                samples = try coalesced(raw)
            }
            return .pointer(Pointer(phase: phase, id: try f.int("id", in: Int(Int32.min)...Int(Int32.max)),
                                    pointerType: try f.optionalString("pointerType") ?? "mouse", samples: samples))
        case "wheel":
            return .wheel(Wheel(x: try f.coordinate("x"), y: try f.coordinate("y"),
                                dx: try f.number("dx", limit: ClientMessageLimits.maxDelta),
                                dy: try f.number("dy", limit: ClientMessageLimits.maxDelta),
                                deltaMode: try f.optionalInt("deltaMode", in: 0...2) ?? 0, t: try f.time("t")))
        case "key":
            let key = try f.string("key")
            guard (1...32).contains(key.count) else { throw ProtocolError(.badMessage, "key.key must be 1–32 characters") }
            let widget = try f.string("widget")
            guard (1...64).contains(widget.count) else { throw ProtocolError(.badMessage, "key.widget must be 1–64 characters") }
            return .key(key: key, widget: widget, t: try f.time("t"))
        case "ping":
            return .ping(t: try f.time("t"))
        default:
            throw ProtocolError(.unknownType, "unknown message type \"\(type.prefix(40))\"")
        }
    }

    private static func coalesced(_ raw: Any) throws -> [Sample] {
        guard let list = raw as? [Any], !list.isEmpty, list.count <= ClientMessageLimits.maxCoalesced else {
            throw ProtocolError(.badMessage, "pointer.coalesced must be a list of 1–\(ClientMessageLimits.maxCoalesced) [x, y, t] samples")
        }
        return try list.enumerated().map { i, item in
            guard let xyt = item as? [Any], xyt.count == 3,
                  let x = Fields.finite(xyt[0]), let y = Fields.finite(xyt[1]), let t = Fields.finite(xyt[2]),
                  abs(x) <= ClientMessageLimits.maxCoordinate, abs(y) <= ClientMessageLimits.maxCoordinate, t >= 0
            else { throw ProtocolError(.badMessage, "pointer.coalesced[\(i)] must be [x, y, t] with finite numbers, t ≥ 0") }
            return Sample(x: x, y: y, t: t)
        }
    }

    public static func isValidRoom(_ room: String) -> Bool {
        (1...64).contains(room.utf8.count) && room.utf8.allSatisfy {
            ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 || $0 == 45
        }
    }
}

/// Typed field access with messages that name the field.
struct Fields {
    let raw: [String: Any]
    init(_ raw: [String: Any]) { self.raw = raw }

    private var kind: String { (raw["type"] as? String) ?? "message" }

    static func finite(_ v: Any?) -> Double? {
        // JSON booleans decode as NSNumber too; refuse them as numbers.
        guard let n = v as? NSNumber, !(v is Bool) || String(cString: n.objCType) != "c" else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    func string(_ k: String) throws -> String {
        guard let s = raw[k] as? String else { throw ProtocolError(.badMessage, "\(kind).\(k) must be a string") }
        return s
    }
    func optionalString(_ k: String) throws -> String? {
        guard let v = raw[k], !(v is NSNull) else { return nil }
        return try string(k)
    }
    func optionalBool(_ k: String) throws -> Bool? {
        guard let v = raw[k], !(v is NSNull) else { return nil }
        guard let b = v as? Bool else { throw ProtocolError(.badMessage, "\(kind).\(k) must be true or false") }
        return b
    }
    func number(_ k: String, limit: Double) throws -> Double {
        guard let d = Fields.finite(raw[k]), abs(d) <= limit else {
            throw ProtocolError(.badMessage, "\(kind).\(k) must be a finite number within ±\(JSONValue.format(limit))")
        }
        return d
    }
    func coordinate(_ k: String) throws -> Double { try number(k, limit: ClientMessageLimits.maxCoordinate) }
    func time(_ k: String) throws -> Double {
        guard let d = Fields.finite(raw[k]), d >= 0 else {
            throw ProtocolError(.badMessage, "\(kind).\(k) must be a finite number of milliseconds ≥ 0")
        }
        return d
    }
    func int(_ k: String, in range: ClosedRange<Int>) throws -> Int {
        guard let d = Fields.finite(raw[k]), d == d.rounded(), d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw ProtocolError(.badMessage, "\(kind).\(k) must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(d)
    }
    func optionalInt(_ k: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let v = raw[k], !(v is NSNull) else { return nil }
        return try int(k, in: range)
    }
}
