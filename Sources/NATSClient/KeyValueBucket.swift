import CNATS

/// A JetStream key-value bucket: values by key, each write a new revision, with compare-and-set
/// writes (`create`, `update`, `delete(_:lastRevision:)`) that let one writer win a race.
///
/// Every call is a request to the server and blocks up to the bucket's `timeout` (see
/// `NATSConnection` on where to call it). Errors: `.conflict` when a condition did not hold,
/// `.transient` when NATS did not answer (retry later), `.failed` otherwise.
///
/// Reads and conditional writes go to the bucket's stream leader (JetStream's message API, not
/// the direct get nats.c's `kvStore_Get` may use, which any replica answers): a read sees every
/// write acknowledged before it.
// @unchecked Sendable: nats.c's JetStream context and store are thread-safe and never change.
public final class KeyValueBucket: @unchecked Sendable {
    public let name: String
    /// Seconds each call waits for the server.
    public let timeout: Double
    let connection: NATSConnection
    /// The `jsCtx*` and `kvStore*`, destroyed with the bucket.
    let context: OpaquePointer
    private let store: OpaquePointer

    /// Opens the bucket `config.name`, creating it with `config` if it does not exist.
    public init(connection: NATSConnection, config: Config, timeout: Double = 2) throws(NATSError) {
        let operation = "open bucket \(config.name)"
        try Self.validate(config, operation)
        try connection.requireConnected(operation)
        var options = jsOptions()
        jsOptions_Init(&options)
        options.Wait = milliseconds(timeout)
        var context: OpaquePointer?
        try check(natsConnection_JetStream(&context, connection.pointer, &options), operation)
        var settings = kvConfig()
        kvConfig_Init(&settings)
        settings.History = UInt8(config.history)
        settings.TTL = Int64((config.ttl * 1e9).rounded())  // nanoseconds
        settings.Replicas = Int32(config.replicas)
        settings.StorageType = config.storage == .memory ? js_MemoryStorage : js_FileStorage
        var store: OpaquePointer?
        let status = config.name.withCString { name in
            settings.Bucket = name
            return js_CreateKeyValue(&store, context, &settings)
        }
        guard status == NATS_OK, let context, let store else {
            let error = NATSError.from(status, operation: operation)
            jsCtx_Destroy(context)
            throw error
        }
        self.name = config.name
        self.timeout = timeout
        self.connection = connection
        self.context = context
        self.store = store
    }

    deinit {
        kvStore_Destroy(store)
        jsCtx_Destroy(context)
    }

    private static func validate(_ config: Config, _ operation: String) throws(NATSError) {
        let nameIsValid =
            !config.name.isEmpty && config.name.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D }
        guard nameIsValid else { throw .invalidArgument("\(operation): a name of letters, digits, _ and - only") }
        guard (1...64).contains(config.history) else { throw .invalidArgument("\(operation): history is 1 to 64") }
        guard config.replicas >= 1 else { throw .invalidArgument("\(operation): replicas is at least 1") }
        guard config.ttl >= 0 else { throw .invalidArgument("\(operation): a TTL of 0 (none) or more seconds") }
    }

    /// The key's value and revision; nil if it has none (never written, deleted, or expired).
    public func get(_ key: String) throws(NATSError) -> Entry? {
        guard let last = try lastMessage(key, "get \(key) from \(name)"), !last.isDeletion else { return nil }
        return Entry(value: last.value, revision: last.revision)
    }

    /// Writes `value` whatever the key holds; returns the new revision.
    @discardableResult
    public func put(_ key: String, _ value: [UInt8]) throws(NATSError) -> UInt64 {
        try write(key, value, expecting: .anything, "put \(key) in \(name)")
    }

    /// Writes `value` if the key has no value (never written, deleted, or expired): a claim.
    /// Returns the new revision; `.conflict` if the key has a value.
    public func create(_ key: String, _ value: [UInt8]) throws(NATSError) -> UInt64 {
        let operation = "create \(key) in \(name)"
        do {
            return try write(key, value, expecting: .absent, operation)
        } catch .conflict {
            let last = try lastMessage(key, operation)
            if let last, !last.isDeletion {
                throw .conflict("\(operation): the key exists (revision \(last.revision))")
            }
            // A delete leaves a marker as the key's last message: the key counts as absent, and the
            // marker's revision is the one to write over (or none, if it has expired meanwhile).
            return try write(key, value, expecting: last.map { .revision($0.revision) } ?? .absent, operation)
        }
    }

    /// Writes `value` if the key is still at `lastRevision` (a fencing token): returns the new
    /// revision; `.conflict` if another write, a delete or expiry came in between.
    public func update(_ key: String, _ value: [UInt8], lastRevision: UInt64) throws(NATSError) -> UInt64 {
        let operation = "update \(key) in \(name) at revision \(lastRevision)"
        // Revision 0 would mean "no value" to JetStream: a create, which is not what was asked.
        guard lastRevision > 0 else { throw .invalidArgument("\(operation): revisions start at 1") }
        return try write(key, value, expecting: .revision(lastRevision), operation)
    }

    /// Deletes the key's value (a delete marker, which expires with the bucket's TTL).
    public func delete(_ key: String) throws(NATSError) {
        try write(key, nil, expecting: .anything, "delete \(key) from \(name)")
    }

    /// Deletes the key's value if it is still at `lastRevision` (giving up a claim only while
    /// holding it); `.conflict` otherwise.
    public func delete(_ key: String, lastRevision: UInt64) throws(NATSError) {
        let operation = "delete \(key) from \(name) at revision \(lastRevision)"
        guard lastRevision > 0 else { throw .invalidArgument("\(operation): revisions start at 1") }
        try write(key, nil, expecting: .revision(lastRevision), operation)
    }

    /// Every key with a value now (none deleted or expired), in no particular order.
    public func keys() throws(NATSError) -> [String] {
        try connection.requireConnected("keys of \(name)")
        var options = kvWatchOptions()
        kvWatchOptions_Init(&options)
        options.Timeout = milliseconds(timeout)  // nats.c waits forever without one
        var list = kvKeysList()
        let status = kvStore_Keys(&list, store, &options)
        defer { kvKeysList_Destroy(&list) }
        try check(status, "keys of \(name)")
        return (0..<Int(list.Count)).compactMap { list.Keys[$0].map { String(cString: $0) } }
    }
}

/// `[A-Za-z0-9]` as C's `isalnum` in the C locale, which nats.c checks names and keys with.
func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
}
