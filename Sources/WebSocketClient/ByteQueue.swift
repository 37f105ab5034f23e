/// A FIFO of received bytes. Consuming from the front is O(1) amortised, so a large
/// message arriving in many small reads does not cost quadratic copying.
public struct ByteQueue: Sendable {
    private var storage: [UInt8] = []
    private var head = 0

    public init() {}

    public var count: Int { storage.count - head }

    public subscript(offset: Int) -> UInt8 { storage[head + offset] }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        storage.append(contentsOf: bytes)
    }

    /// Removes and returns the first `n` bytes (`n <= count`).
    public mutating func consume(_ n: Int) -> [UInt8] {
        let bytes = Array(storage[head..<head + n])
        head += n
        if head > 65_536 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return bytes
    }

    /// Offset of the first occurrence of `pattern`, if any.
    public func firstIndex(of pattern: [UInt8]) -> Int? {
        guard count >= pattern.count else { return nil }
        outer: for start in 0...(count - pattern.count) {
            for (i, byte) in pattern.enumerated() where self[start + i] != byte { continue outer }
            return start
        }
        return nil
    }
}
