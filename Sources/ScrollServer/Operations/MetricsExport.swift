import CoreMetrics
import Prometheus
import ScrollCore

/// `/metrics` in the Prometheus text format: swift-metrics handles over a swift-prometheus
/// registry of this server's own (no process-wide bootstrap), brought up to date from the plain
/// counts (`ServerCounters`) and the gauges read at the scrape. Service thread only.
package final class MetricsExport {
    /// What is read from the rooms, the clients and the store when scraped.
    package struct Reading: Equatable {
        package var clients = 0
        package var roomsActive = 0
        package var roomsDormant = 0
        package var framesRendered = 0
        /// Every client's queue's, gone or not.
        package var sent = SentCounts()
        package var stateWrites = 0
        package var stateWriteFailures = 0
        /// A cluster node's (docs/CLUSTER.md); nil on a single server.
        package var cluster: ClusterReading?
        package init() {}
    }

    package struct ClusterReading: Equatable {
        package var roomsOwned = 0
        package var roomsRelayed = 0
        /// Relays' clients in rooms owned here.
        package var remoteClients = 0
        package var roomsLost = 0
        package var store = NATSClusterLink.Counts()
        package init() {}
    }

    package static let inputToFrameName = "widget_input_to_frame_seconds"
    /// Input-to-frame on the server is a write after a render: well under a millisecond when idle,
    /// up to a tick (16.7 ms at 60 Hz) behind other work; beyond 100 ms something is wrong.
    package static let inputToFrameBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .seconds(1),
    ]
    /// The close codes the server itself sends (docs/PROTOCOL.md, "Close codes").
    static let closeCodes = [
        CloseCode.goingAway, CloseCode.policyViolation, CloseCode.messageTooBig, CloseCode.serviceRestart,
        CloseCode.tryAgainLater,
    ]

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Where `ServerCounters` records input-to-frame.
    package let inputToFrame: CoreMetrics.Timer
    /// Each counter with what it was given so far: a scrape adds the difference.
    private var counters: [String: (counter: CoreMetrics.Counter, exported: Int)] = [:]
    private var gauges: [String: CoreMetrics.Gauge] = [:]

    package init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[Self.inputToFrameName] = Self.inputToFrameBuckets
        self.factory = factory
        inputToFrame = Timer(label: Self.inputToFrameName, factory: factory)
        // Every series from the first scrape on, at 0 until something happens.
        update(ServerCounters(inputToFrame: inputToFrame), Reading())
    }

    /// The text a scrape answers with, the counts brought up to date first.
    package func text(_ counts: ServerCounters, _ reading: Reading) -> String {
        update(counts, reading)
        return registry.emitToString()
    }

    private func update(_ counts: ServerCounters, _ reading: Reading) {
        counts.recordShown()
        gauge("widget_clients", [], reading.clients)
        gauge("widget_rooms", [("state", "active")], reading.roomsActive)
        gauge("widget_rooms", [("state", "dormant")], reading.roomsDormant)
        counter("widget_frames_rendered_total", [], reading.framesRendered)
        counter("widget_frames_sent_total", [], reading.sent.frames)
        counter("widget_frames_skipped_total", [], reading.sent.skipped)
        counter("widget_bytes_sent_total", [], reading.sent.bytes)
        for type in ReceivedType.allCases {
            counter("widget_messages_received_total", [("type", type.label)], counts.received(type))
        }
        for code in ProtocolError.Code.allCases {
            counter("widget_errors_total", [("code", code.rawValue)], counts.errors[code] ?? 0)
        }
        for code in Set(Self.closeCodes).union(counts.closeCodes.keys).sorted() {
            counter("widget_closes_sent_total", [("code", "\(code)")], counts.closeCodes[code] ?? 0)
        }
        counter("widget_state_writes_total", [], reading.stateWrites)
        counter("widget_state_write_failures_total", [], reading.stateWriteFailures)
        guard let cluster = reading.cluster else { return }
        gauge("widget_cluster_rooms", [("role", "owned")], cluster.roomsOwned)
        gauge("widget_cluster_rooms", [("role", "relayed")], cluster.roomsRelayed)
        gauge("widget_cluster_relayed_clients", [], cluster.remoteClients)
        counter("widget_cluster_rooms_lost_total", [], cluster.roomsLost)
        counter("widget_cluster_store_failures_total", [], cluster.store.failedRequests)
        counter("widget_cluster_publishes_dropped_total", [], cluster.store.droppedPublishes)
        counter("widget_cluster_unreadable_total", [], cluster.store.unreadable)
    }

    private func counter(_ name: String, _ labels: [(String, String)], _ total: Int) {
        let key = Self.key(name, labels)
        let (counter, exported) =
            counters[key] ?? (CoreMetrics.Counter(label: name, dimensions: labels, factory: factory), 0)
        if total > exported { counter.increment(by: total - exported) }
        counters[key] = (counter, max(total, exported))
    }

    private func gauge(_ name: String, _ labels: [(String, String)], _ value: Int) {
        let key = Self.key(name, labels)
        let gauge = gauges[key] ?? CoreMetrics.Gauge(label: name, dimensions: labels, factory: factory)
        gauges[key] = gauge
        gauge.record(value)
    }

    private static func key(_ name: String, _ labels: [(String, String)]) -> String {
        ([name] + labels.map { "\($0.0)=\($0.1)" }).joined(separator: ",")
    }
}
