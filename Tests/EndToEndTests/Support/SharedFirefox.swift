import Foundation
import Testing

/// One Firefox for a whole suite: `@Suite(.sharedFirefox)` starts none until a test opens a
/// Firefox page (`Engine.firefox`), then keeps that browser for the suite's other tests (each page
/// a tab in a container of its own) and closes it when the suite ends. A browser that died is
/// started again for the next page. Firefox takes a second or more to start, each of its pages
/// a fraction of that.
struct SharedFirefox: SuiteTrait, TestScoping {
    /// The suite's holder, for the tests it runs.
    @TaskLocal static var current: Holder?

    /// Once for the suite, not again for each of its tests.
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let holder = Holder()
        defer { holder.close() }
        try await Self.$current.withValue(holder) { try await function() }
    }

    /// The running browser of the suite this test is in.
    static func browser() throws -> Firefox {
        guard let current else { throw HarnessError.noSharedFirefox }
        return try current.browser()
    }

    /// The suite's browser, started on first use.
    final class Holder: @unchecked Sendable {
        private let lock = NSLock()
        private var firefox: Firefox?

        func browser() throws -> Firefox {
            try lock.withLock {
                if let firefox, !firefox.hasExited { return firefox }
                firefox?.close()
                let started = try Firefox()
                firefox = started
                return started
            }
        }

        func close() {
            lock.withLock {
                firefox?.close()
                firefox = nil
            }
        }
    }
}

extension Trait where Self == SharedFirefox {
    /// One Firefox for the suite's tests (`SharedFirefox`).
    static var sharedFirefox: Self { SharedFirefox() }
}
