import Foundation

/// Collects what callbacks on nats.c's threads hand over, and waits with a deadline until what
/// was collected satisfies a condition (woken by each new value: no polling).
// @unchecked Sendable: `values` is guarded by `condition`.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []

    func append(_ value: Value) {
        condition.withLock {
            values.append(value)
            condition.broadcast()
        }
    }

    var all: [Value] { condition.withLock { values } }

    /// Whether `predicate` holds for the values collected within `timeout` seconds.
    func wait(timeout: Double, until predicate: ([Value]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(values) {
            guard condition.wait(until: deadline) else { return predicate(values) }
        }
        return true
    }
}

extension Recorder where Value: Equatable {
    /// Whether `value` arrives within `timeout` seconds (or had already).
    func wait(for value: Value, timeout: Double) -> Bool { wait(timeout: timeout) { $0.contains(value) } }
}
