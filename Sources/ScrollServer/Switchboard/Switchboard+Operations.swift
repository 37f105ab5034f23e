/// What `/metrics` and `/readyz` read (`OperationsPaths`), on the service thread.
extension Switchboard: OperationsStatus {
    /// `/metrics`: the Prometheus text, read now.
    package func metricsText() -> String {
        var reading = MetricsExport.Reading()
        reading.clients = clients.count
        reading.roomsActive = directory.liveCount
        reading.roomsDormant = directory.dormantCount
        reading.framesRendered = directory.framesRendered
        reading.sent = sent
        if let health = writer?.health {
            reading.stateWrites = health.writes
            reading.stateWriteFailures = health.failures
        }
        if let cluster {
            var c = MetricsExport.ClusterReading()
            c.roomsOwned = cluster.ownership.owned.count
            c.roomsRelayed = cluster.relayed.count
            c.remoteClients = cluster.remoteIDs.count
            c.roomsLost = cluster.roomsLost
            c.store = cluster.link.counts
            reading.cluster = c
            reading.stateWrites = cluster.stateWrites
            reading.stateWriteFailures = cluster.stateWriteFailures
        }
        return metrics.text(counters, reading)
    }

    /// Frames and bytes written to every client since the start, and frames skipped.
    package var sent: SentCounts { clients.values.reduce(counters.sentByDeparted) { $0 + $1.outbound.sent } }

    /// `/readyz`: nil when ready for clients, else why not.
    package var unreadiness: String? {
        if stopping { return "stopping" }
        if let failing = writer?.health.failing { return "the state store is failing: \(failing)" }
        if let unreachable = cluster?.link.unreachable { return unreachable }
        return nil
    }
}
