import ScrollCore

/// The RFC 6455 close codes this server sends (docs/PROTOCOL.md, "Close codes").
package enum CloseCode {
    /// The server is stopping (SIGINT, SIGTERM): reconnect to the next one.
    package static let goingAway: UInt16 = 1001
    /// lws sends it for a text message that is not UTF-8 (LWS_SERVER_OPTION_VALIDATE_UTF8).
    package static let invalidPayload: UInt16 = 1007
    package static let policyViolation: UInt16 = 1008
    package static let messageTooBig: UInt16 = 1009
    /// A cluster node let go of the room: reconnecting reaches its new owner.
    package static let serviceRestart: UInt16 = 1012
    package static let tryAgainLater: UInt16 = 1013
}

extension ProtocolError.Code {
    /// The close code that follows this error when it is fatal.
    package var closeCode: UInt16 {
        switch self {
        case .tooLarge: CloseCode.messageTooBig
        case .serverFull, .rateLimited, .roomUnavailable: CloseCode.tryAgainLater
        case .roomMoved: CloseCode.serviceRestart
        default: CloseCode.policyViolation
        }
    }
}
