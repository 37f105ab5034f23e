import CNATS

/// Why a NATS call failed, in the three classes a caller acts on differently.
public enum NATSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The caller lost a race: `create` found the key present, `update` (or a delete at a
    /// revision) found the key at another revision or gone. The same call cannot succeed again.
    case conflict(String)
    /// NATS did not answer: a timeout, no connection now (disconnected, reconnecting, the
    /// reconnect buffer full), or no responders (JetStream not ready). The call may succeed later.
    case transient(String)
    /// Anything else: nats.c's status, JetStream's error code (0 when the server sent none), and
    /// what was attempted with nats.c's text.
    case failed(status: Int, jetStreamCode: Int, text: String)

    public var description: String {
        switch self {
        case .conflict(let text): "NATS conflict: \(text)"
        case .transient(let text): "NATS unavailable: \(text)"
        case let .failed(status, code, text):
            "NATS error: \(text) (status \(status)\(code == 0 ? "" : ", JetStream code \(code)"))"
        }
    }

    /// Whether retrying the same call later may succeed.
    public var isTransient: Bool {
        if case .transient = self { return true }
        return false
    }

    /// Whether the caller lost a race (a key that exists, a revision that moved).
    public var isConflict: Bool {
        if case .conflict = self { return true }
        return false
    }
}

extension NATSError {
    /// The statuses that mean "no answer now", not "no": nats.c keeps reconnecting meanwhile.
    /// A closed connection is not among them: only `close()` closes one, and it stays closed.
    private static let transientStatuses: Set<UInt32> = [
        NATS_TIMEOUT, NATS_NO_RESPONDERS, NATS_CONNECTION_DISCONNECTED, NATS_NOT_YET_CONNECTED, NATS_NO_SERVER,
        NATS_IO_ERROR, NATS_STALE_CONNECTION, NATS_INSUFFICIENT_BUFFER,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// JetStream's answers that mean "not now": no cluster quorum or leader yet.
    private static let transientJetStreamCodes: Set<UInt32> = [
        JSClusterNotAvailErr.rawValue, JSClusterNotLeaderErr.rawValue,
    ]

    /// The error for nats.c's `status` from `operation` (what was attempted, for the log).
    ///
    /// nats.c keeps the text of the last error per thread: it is read here, on the thread that made
    /// the call, and only when it was set for this status. `usesLastError` false (a callback on
    /// one of nats.c's threads) names the status alone.
    static func from(
        _ status: natsStatus, jetStreamCode: jsErrCode = jsErrCode(0), operation: String, usesLastError: Bool = true
    ) -> NATSError {
        let message = "\(operation): \(usesLastError ? text(of: status) : String(cString: natsStatus_GetText(status)))"
        if transientStatuses.contains(status.rawValue) || transientJetStreamCodes.contains(jetStreamCode.rawValue) {
            return .transient(message)
        }
        return .failed(status: Int(status.rawValue), jetStreamCode: Int(jetStreamCode.rawValue), text: message)
    }

    /// nats.c's text of the last error on this thread if it was set for `status` (the server's
    /// words for a JetStream error), else the status's name.
    static func text(of status: natsStatus) -> String {
        var lastStatus = NATS_OK
        guard let last = nats_GetLastError(&lastStatus), lastStatus == status else {
            return String(cString: natsStatus_GetText(status))
        }
        let detail = String(cString: last)
        // nats.c prefixes its source position, "(js.c:533): ", which says nothing to a reader of logs.
        if detail.hasPrefix("("), let end = detail.firstRange(of: "): ") { return String(detail[end.upperBound...]) }
        return detail.isEmpty ? String(cString: natsStatus_GetText(status)) : detail
    }

    /// An argument nats.c would refuse (or, for a key written directly, mis-route), caught before the call.
    static func invalidArgument(_ text: String) -> NATSError {
        .failed(status: Int(NATS_INVALID_ARG.rawValue), jetStreamCode: 0, text: text)
    }
}

/// Throws the error for `status` unless it is `NATS_OK`.
func check(_ status: natsStatus, _ operation: @autoclosure () -> String) throws(NATSError) {
    guard status == NATS_OK else { throw NATSError.from(status, operation: operation()) }
}
