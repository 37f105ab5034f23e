extension KeyValueBucket {
    /// A key's value now and the revision it was written at (the stream sequence: increasing,
    /// the token `update` and `delete(_:lastRevision:)` check).
    public struct Entry: Equatable, Sendable {
        public let value: [UInt8]
        public let revision: UInt64

        public init(value: [UInt8], revision: UInt64) {
            self.value = value
            self.revision = revision
        }
    }
}
