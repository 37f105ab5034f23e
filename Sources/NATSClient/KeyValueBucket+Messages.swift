import CNATS

/// The bucket's writes and reads as JetStream messages on `$KV.<bucket>.<key>` in the stream
/// `KV_<bucket>`, as nats.c's kvStore writes them. Done here rather than through `kvStore_Create`
/// and `kvStore_Update` because those drop JetStream's error code: a lost race (10071, "wrong
/// last sequence") would look like any other server error, told apart only by its text.
extension KeyValueBucket {
    /// What the key's last message must be for a write to be stored.
    enum Expectation {
        case anything
        /// No message for the key (JetStream's "expected last subject sequence 0").
        case absent
        case revision(UInt64)
    }

    /// The key's last message: a value, or a delete marker (`kvStore_Delete` or `_Purge`).
    struct LastMessage {
        let value: [UInt8]
        let revision: UInt64
        let isDeletion: Bool
    }

    /// nats.c's KeyValue header and its delete values (its kv.h, which it does not install).
    private static let operationHeader = "KV-Operation"
    private static let deletions: Set<String> = ["DEL", "PURGE"]

    /// Stores `value` (nil: a delete marker) if `expecting` holds; returns its revision.
    /// `.conflict` when it does not.
    @discardableResult
    func write(
        _ key: String, _ value: [UInt8]?, expecting: Expectation, _ operation: @autoclosure () -> String
    ) throws(NATSError) -> UInt64 {
        let subject = try subject(key, operation())
        try connection.requireConnected(operation())
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        switch expecting {
        case .anything: break
        case .absent: options.ExpectNoMessage = true
        case .revision(let revision): options.ExpectLastSubjectSeq = revision
        }
        var ack: UnsafeMutablePointer<jsPubAck>?
        var code = jsErrCode(0)
        let status: natsStatus
        if let value {
            status = value.withUnsafeBytes {
                js_Publish(&ack, context, subject, $0.baseAddress, Int32($0.count), &options, &code)
            }
        } else {
            status = publishDeletion(subject, &ack, &options, &code)
        }
        defer { jsPubAck_Destroy(ack) }
        if code == JSStreamWrongLastSequenceErr {
            throw .conflict("\(operation()): the key is at another revision (\(NATSError.text(of: status)))")
        }
        guard status == NATS_OK, let ack else {
            throw NATSError.from(status, jetStreamCode: code, operation: operation())
        }
        return ack.pointee.Sequence
    }

    private func publishDeletion(
        _ subject: String, _ ack: inout UnsafeMutablePointer<jsPubAck>?, _ options: inout jsPubOptions,
        _ code: inout jsErrCode
    ) -> natsStatus {
        var message: OpaquePointer?
        var status = natsMsg_Create(&message, subject, nil, nil, 0)
        if status == NATS_OK { status = natsMsgHeader_Set(message, Self.operationHeader, "DEL") }
        if status == NATS_OK { status = js_PublishMsg(&ack, context, message, &options, &code) }
        natsMsg_Destroy(message)
        return status
    }

    /// The key's last message, delete markers included; nil if it has none (never written, or
    /// expired).
    func lastMessage(_ key: String, _ operation: @autoclosure () -> String) throws(NATSError) -> LastMessage? {
        let subject = try subject(key, operation())
        try connection.requireConnected(operation())
        var message: OpaquePointer?
        var code = jsErrCode(0)
        let status = js_GetLastMsg(&message, context, "KV_\(name)", subject, nil, &code)
        if status == NATS_NOT_FOUND { return nil }
        guard status == NATS_OK, let message else {
            throw NATSError.from(status, jetStreamCode: code, operation: operation())
        }
        defer { natsMsg_Destroy(message) }
        var header: UnsafePointer<CChar>?
        let isDeletion =
            natsMsgHeader_Get(message, Self.operationHeader, &header) == NATS_OK
            && header.map { Self.deletions.contains(String(cString: $0)) } == true
        return LastMessage(
            value: bytes(natsMsg_GetData(message), count: natsMsg_GetDataLength(message)),
            revision: natsMsg_GetSequence(message), isDeletion: isDeletion)
    }

    /// The key's subject. Checked as nats.c checks keys: written directly, a key with a space or
    /// a wildcard would be another subject, or break the protocol line.
    private func subject(_ key: String, _ operation: @autoclosure () -> String) throws(NATSError) -> String {
        let bytes = Array(key.utf8)
        let allowed: Set<UInt8> = Set("._-/\\=".utf8)
        let isValid =
            !bytes.isEmpty && bytes.first != 0x2E && bytes.last != 0x2E
            && bytes.allSatisfy { isASCIIAlphanumeric($0) || allowed.contains($0) }
            && !zip(bytes, bytes.dropFirst()).contains { $0 == 0x2E && $1 == 0x2E }
        guard isValid else {
            throw .invalidArgument("\(operation()): a key of letters, digits and ._-/\\= (no empty token)")
        }
        return "$KV.\(name).\(key)"
    }
}
