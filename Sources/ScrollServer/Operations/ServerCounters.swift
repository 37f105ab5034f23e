import CoreMetrics
import ScrollCore

/// What the server has done since it started, counted where it happens: plain integers on the
/// service thread (no lock, no atomic; only that thread writes or reads them), turned into
/// Prometheus metrics only when `/metrics` is scraped (`MetricsExport`). Frames and bytes written
/// are kept by each client's queue (`OutboundQueue.sent`), as the departed clients' are here.
/// Input-to-frame is a histogram: its samples (one per input shown, not per frame sent) wait in
/// a short list and go to its swift-metrics `Timer` at the scrape, or once `shownBatch` wait, so
/// the input's own path, before its frame is written, does not take the histogram's lock.
package final class ServerCounters {
    /// What the queues of clients that have gone wrote.
    package var sentByDeparted = SentCounts()
    /// Whole messages read, by `ReceivedType` (its raw value is the index).
    package private(set) var received = [Int](repeating: 0, count: ReceivedType.allCases.count)
    /// Error messages sent (refusals and fatal ones), by code.
    package private(set) var errors: [ProtocolError.Code: Int] = [:]
    /// Close codes the server sent (1007 is libwebsockets' own and not seen here).
    package private(set) var closeCodes: [UInt16: Int] = [:]
    /// From the receipt of an input to the write of the first frame that shows it, to its client.
    let inputToFrame: CoreMetrics.Timer

    package init(inputToFrame: CoreMetrics.Timer) {
        self.inputToFrame = inputToFrame
        shown.reserveCapacity(Self.shownBatch)
    }

    package func count(_ type: ReceivedType) { received[type.rawValue] += 1 }
    package func count(_ error: ProtocolError.Code) { errors[error, default: 0] += 1 }
    package func countClose(_ code: UInt16) { closeCodes[code, default: 0] += 1 }
    package func received(_ type: ReceivedType) -> Int { received[type.rawValue] }

    /// Input-to-frame samples (ns) not yet given to `inputToFrame`.
    private var shown: [Int64] = []
    /// The most samples that wait for a scrape.
    package static let shownBatch = 64

    /// One input shown `seconds` after it was received.
    package func inputShown(after seconds: Double) {
        shown.append(Int64((seconds * 1e9).rounded()))
        if shown.count >= Self.shownBatch { recordShown() }
    }

    /// How many samples wait for `recordShown`.
    package var shownWaiting: Int { shown.count }

    /// Gives the waiting samples to `inputToFrame` (the scrape does, first).
    package func recordShown() {
        for nanoseconds in shown { inputToFrame.recordNanoseconds(nanoseconds) }
        shown.removeAll(keepingCapacity: true)
    }
}

/// A message as counted on receipt: its type, or why it was not read.
package enum ReceivedType: Int, CaseIterable, Sendable {
    case hello, pointer, wheel, key, action, ping, hover, preferences
    /// Not a message the server can read: not JSON, a bad or unknown one, binary, too large.
    case invalid
    /// Dropped unread by the rate limit.
    case dropped

    package init(_ message: ClientMessage) {
        switch message {
        case .hello: self = .hello
        case .pointer: self = .pointer
        case .wheel: self = .wheel
        case .key: self = .key
        case .action: self = .action
        case .ping: self = .ping
        case .hover: self = .hover
        case .preferences: self = .preferences
        }
    }

    /// The `type` label: the message's own `type` on the wire, or `invalid`, `dropped`.
    package var label: String {
        switch self {
        case .hello: "hello"
        case .pointer: "pointer"
        case .wheel: "wheel"
        case .key: "key"
        case .action: "action"
        case .ping: "ping"
        case .hover: "hover"
        case .preferences: "preferences"
        case .invalid: "invalid"
        case .dropped: "dropped"
        }
    }
}
