import CNATS

/// A message as a subscription or a request receives it: copied out of nats.c's buffer, so it
/// outlives the callback.
public struct NATSMessage: Equatable, Sendable {
    public let subject: String
    /// Where the sender waits for an answer (a request's inbox); nil for a plain publish.
    public let reply: String?
    public let payload: [UInt8]

    public init(subject: String, reply: String? = nil, payload: [UInt8]) {
        self.subject = subject
        self.reply = reply
        self.payload = payload
    }

    /// Copies nats.c's message (which stays the caller's to destroy).
    init(_ message: OpaquePointer) {
        subject = String(cString: natsMsg_GetSubject(message))
        reply = natsMsg_GetReply(message).map { String(cString: $0) }
        payload = bytes(natsMsg_GetData(message), count: natsMsg_GetDataLength(message))
    }
}

/// A copy of `count` bytes at `start` (none when `start` is nil).
func bytes(_ start: UnsafeRawPointer?, count: Int32) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: Int(count)))
}
