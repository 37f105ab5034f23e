/// A refusal sent to the client as `{"type":"error","code":…,"message":…}`.
/// Codes are stable (docs/PROTOCOL.md, "Errors"); messages are for humans.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case badJSON = "bad_json"
        case badMessage = "bad_message"
        case unknownType = "unknown_type"
        /// An action the scene cannot perform: no such widget or action, or bad arguments.
        case badAction = "bad_action"
        case tooLarge = "too_large"
        case rateLimited = "rate_limited"
        case protocolMismatch = "protocol_mismatch"
        case notReady = "not_ready"
        case unsupported = "unsupported"
        case slowConsumer = "slow_consumer"
        case serverFull = "server_full"
        case unknownScene = "unknown_scene"
        case sceneMismatch = "scene_mismatch"
        /// A cluster node let go of the room (its lease ran out or another node took it): reconnect.
        case roomMoved = "room_moved"
        /// A cluster node cannot open the room now (the shared store is out of reach, or the room is
        /// served on another server): try again.
        case roomUnavailable = "room_unavailable"
    }
    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { "\(code.rawValue): \(message)" }
}
