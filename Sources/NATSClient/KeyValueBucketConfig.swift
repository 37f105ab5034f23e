extension KeyValueBucket {
    /// A bucket's settings. Opening a bucket that exists with other settings fails.
    public struct Config: Equatable, Sendable {
        /// Letters, digits, `_` and `-`.
        public var name: String
        /// Seconds a value lives after it was written (0: forever). A value not rewritten in time
        /// goes, and `create` on its key succeeds again: a lease.
        public var ttl: Double
        /// Values kept per key, 1 to 64.
        public var history: Int
        /// Copies across a cluster's servers: 1, or 3 (a cluster of at least three).
        public var replicas: Int
        public var storage: Storage

        public enum Storage: Equatable, Sendable {
            case file, memory
        }

        public init(name: String, ttl: Double = 0, history: Int = 1, replicas: Int = 1, storage: Storage = .file) {
            self.name = name
            self.ttl = ttl
            self.history = history
            self.replicas = replicas
            self.storage = storage
        }
    }
}
