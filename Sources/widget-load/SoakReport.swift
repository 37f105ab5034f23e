import Foundation
import LoopbackTools

/// What a soak measured, and its verdict: the server's descriptors must not grow after the
/// warm-up, nor its resident memory by more than `rssGrowthKiB`; every connection must go
/// as planned, no unexpected error may come, and the server must still run.
struct SoakReport: Encodable {
    var serverPID: Int32
    var rssGrowthKiB: Int
    var cycles: CycleSoak.Outcome?
    var replay: ReplaySoak.Outcome?
    var hostile: HostileSoak.Outcome?
    /// The changed rooms through the state file and a restart (only with --state scratch).
    var store: StoreCheck.Outcome?
    /// Where the server started for the soak keeps rooms: "scratch" (a new file, removed after)
    /// or "none"; nil for a server given by --url.
    var state: String?
    var serverRunning: Bool
    var problems: [String] = []
    var passed: Bool { problems.isEmpty }

    init(
        serverPID: Int32, rssGrowthKiB: Int, cycles: CycleSoak.Outcome?, replay: ReplaySoak.Outcome?,
        hostile: HostileSoak.Outcome? = nil, store: StoreCheck.Outcome? = nil, state: String? = nil,
        serverRunning: Bool
    ) {
        self.serverPID = serverPID
        self.rssGrowthKiB = rssGrowthKiB
        self.cycles = cycles
        self.replay = replay
        self.hostile = hostile
        self.store = store
        self.state = state
        self.serverRunning = serverRunning
        if let cycles {
            let expected = cycles.completed.values.reduce(0, +) + cycles.failures.values.reduce(0, +)
            problems += Self.problems(
                "connect/disconnect cycles", stopped: cycles.stopped, failures: cycles.failures,
                samples: cycles.samples, bound: rssGrowthKiB)
            if cycles.stopped == nil, expected != cycles.cycles {
                problems.append("connect/disconnect cycles: \(cycles.cycles) ran, \(expected) accounted for")
            }
        }
        if let replay {
            problems += Self.problems(
                "multi-client replay", stopped: replay.stopped, failures: replay.failures, samples: replay.samples,
                bound: rssGrowthKiB)
            for (code, count) in replay.unexpectedErrors.sorted(by: { $0.key < $1.key }) {
                problems.append("multi-client replay: \(count) × error \(code) from the server")
            }
        }
        if let hostile {
            // Its failures include every refusal the rules call for that did not come.
            problems += Self.problems(
                "hostile clients", stopped: hostile.stopped, failures: hostile.failures, samples: hostile.samples,
                bound: rssGrowthKiB)
        }
        problems += (store?.failures ?? []).map { "the store: \($0)" }
        if !serverRunning { problems.append("the server is no longer running") }
    }

    private enum CodingKeys: String, CodingKey {
        case serverPID, rssGrowthKiB, cycles, replay, hostile, store, state, serverRunning, problems, passed
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(serverPID, forKey: .serverPID)
        try c.encode(rssGrowthKiB, forKey: .rssGrowthKiB)
        try c.encodeIfPresent(cycles, forKey: .cycles)
        try c.encodeIfPresent(replay, forKey: .replay)
        try c.encodeIfPresent(hostile, forKey: .hostile)
        try c.encodeIfPresent(store, forKey: .store)
        try c.encodeIfPresent(state, forKey: .state)
        try c.encode(serverRunning, forKey: .serverRunning)
        try c.encode(problems, forKey: .problems)
        try c.encode(passed, forKey: .passed)
    }

    /// One phase's readings against its quiet "before" (after the warm-up) and its reference.
    private static func problems(
        _ phase: String, stopped: String?, failures: [String: Int], samples: [ServerSample], bound: Int
    ) -> [String] {
        var problems: [String] = []
        if let stopped { problems.append("\(phase): stopped early: \(stopped)") }
        for (reason, count) in failures.sorted(by: { $0.key < $1.key }) {
            problems.append("\(phase): \(count) × \(reason)")
        }
        guard stopped == nil else { return problems }
        guard let before = samples.first(where: { $0.label == "before" }),
            let after = samples.first(where: { $0.label == "after" })
        else { return problems + ["\(phase): no reading before or after"] }
        guard let fdsBefore = before.fds, let fdsAfter = after.fds, SoakMemoryRule.reference(samples) != nil else {
            return problems + ["\(phase): the server's /proc entries could not be read"]
        }
        if fdsAfter > fdsBefore {
            problems.append(
                "\(phase): the server has \(fdsAfter) open descriptors after, \(fdsBefore) before (after the warm-up)")
        }
        // The highest reading after the warm-up, connections in flight or not.
        if let grew = SoakMemoryRule.problem(phase, samples: samples, bound: bound) { problems.append(grew) }
        return problems
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
