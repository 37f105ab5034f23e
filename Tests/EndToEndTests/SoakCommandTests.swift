import Foundation
import Glibc
import LoopbackTools
import Testing

/// `widget-load soak` (`make soak`) kept working: a short soak against a test server, one that
/// must fail because the server goes away, a short run of the hostile rounds, and one that must
/// fail because the server breaks a rule they hold it to. Counts are asserted from the rules
/// (docs/PROTOCOL.md, "Errors"), figures no further than the verdict's own bounds
/// (docs/RELIABILITY.md, "Soak"); the real run is `make soak`.
@Suite struct SoakCommandTests {
    private static let binary = Products.path("widget-load")
    private static let traces = PackagePaths.root.appendingPathComponent("Tests/ScrollCoreTests/Traces").path

    /// The JSON report: its lines are "{", "}" and indented ones. The output interleaves stdout
    /// and stderr by line as they are read, so a progress line can land among them.
    private func report(_ output: String) -> [String: Any]? {
        let json = output.split(separator: "\n").filter { $0 == "{" || $0 == "}" || $0.hasPrefix(" ") }
        return try? JSONSerialization.jsonObject(with: Data(json.joined(separator: "\n").utf8)) as? [String: Any]
    }

    private func samples(_ phase: [String: Any]?) -> [[String: Any]] { phase?["samples"] as? [[String: Any]] ?? [] }

    @Test(
        "200 cycles and 12 s of replay: every cycle as planned, every input kind sent, quiet readings before and after")
    func shortSoak() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let child = try ChildProcess(
            executable: Self.binary,
            arguments: [
                "soak", "--url", server.wsURL, "--server-pid", "\(server.pid)", "--cycles", "200", "--minutes", "0.2",
                "--hostile-rounds", "0",
                "--traces", Self.traces,
            ])
        #expect(child.waitForExit(timeout: 120), "the soak did not stop by itself")
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        let output = child.output.text
        #expect(child.exitCode == 0, "\(output)")
        let r = try #require(report(output), "\(output)")
        #expect(r["passed"] as? Bool == true)
        #expect((r["problems"] as? [String])?.isEmpty == true, "\(output)")

        // One cycle in 20 of each early ending, the rest complete: all 200 as planned.
        let cycles = try #require(r["cycles"] as? [String: Any])
        #expect(cycles["cycles"] as? Int == 200)
        #expect(
            cycles["completed"] as? [String: Int] == [
                "complete": 160, "closeBeforeHello": 10, "closeBeforeWelcome": 10, "dropAtWelcome": 10,
                "resetAtWelcome": 10,
            ])
        #expect((cycles["failures"] as? [String: Int])?.isEmpty == true)

        let replay = try #require(r["replay"] as? [String: Any])
        let sent = try #require(replay["sent"] as? [String: Int])
        for type in ["hello", "pointer", "wheel", "key", "action", "hover", "ping"] {
            #expect(sent[type, default: 0] > 0, "no \(type) message sent: \(sent)")
        }
        let received = try #require(replay["received"] as? [String: Int])
        for type in ["welcome", "semantics", "presence", "frame", "events", "pong"] {
            #expect(received[type, default: 0] > 0, "no \(type) received: \(received)")
        }
        // Some golden traces hold refused actions: reported, not a failure; nothing else comes.
        #expect(Set((replay["serverErrors"] as? [String: Int] ?? [:]).keys).isSubset(of: ["bad_action"]))
        #expect((replay["failures"] as? [String: Int])?.isEmpty == true)

        for phase in [cycles, replay] {
            let readings = samples(phase)
            #expect(Set(readings.compactMap { $0["label"] as? String }) == ["start", "before", "during", "after"])
            let before = try #require(readings.first { $0["label"] as? String == "before" })
            let after = try #require(readings.first { $0["label"] as? String == "after" })
            #expect(before["connections"] as? Int == 0 && after["connections"] as? Int == 0)
            #expect(try #require(after["fds"] as? Int) <= (try #require(before["fds"] as? Int)))
        }
        #expect(output.contains("Verdict: PASS"))
    }

    @Test("a server that dies during the cycles fails the soak (exit 1), naming why")
    func serverDies() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let child = try ChildProcess(
            executable: Self.binary,
            arguments: [
                "soak", "--url", server.wsURL, "--server-pid", "\(server.pid)", "--cycles", "100000", "--minutes", "0",
            ])
        defer { child.stop() }
        // Killed mid-run: after the warm-up, with cycles in flight.
        let running = child.output.waitForLine(timeout: 60) { $0.contains("during at") }
        #expect(running != nil, "\(child.output.text)")
        kill(server.pid, SIGKILL)
        #expect(child.waitForExit(timeout: 60), "the soak did not stop by itself")
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        let output = child.output.text
        #expect(child.exitCode == 1, "\(output)")
        #expect(report(output)?["passed"] as? Bool == false, "\(output)")
        #expect(output.contains("FAILED"), "\(output)")
        #expect(output.contains("the server exited") || output.contains("cycles failed"), "\(output)")
    }

    /// Runs `widget-load soak` against `server` with `arguments`; its exit code, output and report.
    private func soak(_ server: ServerProcess, _ arguments: [String], timeout: Double) throws -> (
        code: Int32?, output: String, report: [String: Any]?
    ) {
        let child = try ChildProcess(
            executable: Self.binary,
            arguments: ["soak", "--url", server.wsURL, "--server-pid", "\(server.pid)"] + arguments)
        defer { child.stop() }
        #expect(child.waitForExit(timeout: timeout), "the soak did not stop by itself")
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        return (child.exitCode, child.output.text, report(child.output.text))
    }

    /// Phase 3 alone, small: a warm-up round and one more.
    private static let shortHostile =
        ["--cycles", "0", "--minutes", "0", "--hostile-rounds", "1", "--bursts", "1"]
        + ["--stalled", "1", "--vanished", "0", "--idle-sockets", "4", "--hello-less", "258"]
        + ["--rushed-rooms", "140", "--paced-rooms", "1"]

    @Test(
        "hostile rounds: every refusal the rules call for comes, readers get every click, the server is left as it was"
    )
    func hostileRounds() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let (code, output, json) = try soak(server, Self.shortHostile, timeout: 300)
        #expect(code == 0, "\(output)")
        let r = try #require(json, "\(output)")
        #expect(r["passed"] as? Bool == true)
        let hostile = try #require(r["hostile"] as? [String: Any])
        #expect(hostile["rounds"] as? Int == 2)
        #expect((hostile["failures"] as? [String: Int])?.isEmpty == true, "\(output)")
        let expected = try #require(hostile["expected"] as? [String: Int])
        func count(_ prefix: String) -> Int { expected.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +) }
        // docs/PROTOCOL.md: 256 connections may wait for hello, each 10 s; the rest are refused.
        #expect(count("server_full") == 2 * (258 - 256))
        #expect(count("not_ready") == 2 * 256)
        // One stalled reader a round, closed slow_consumer once read again; the flooder's 6,000
        // pings at once go past the 2,000 allowed; each idle TCP connection is closed.
        #expect(count("slow_consumer: stalled reader") == 2)
        // One burst of events (9.5 MB) stays under the 32 MiB cap: it is the 10 s rule that closed it.
        #expect(expected.keys.contains { $0.hasPrefix("slow_consumer") && $0.contains("took nothing for 10 s") })
        #expect(count("rate_limited: 6000 pings") >= 2)
        #expect(count("closed: idle TCP") == 2 * 4)
        // 140 new rooms at once from one address: at most 120, and one a second since, are made.
        let rushes = try #require(hostile["rushes"] as? [[String: Any]])
        #expect(rushes.count == 2)
        for rush in rushes {
            let made = try #require(rush["made"] as? Int), refused = try #require(rush["refused"] as? Int)
            let seconds = try #require(rush["seconds"] as? Double)
            #expect(made + refused == 140)
            #expect(refused > 0 && made <= 120 + Int(seconds) + 1, "\(rush)")
        }
        #expect(count("rate_limited: a new room") == rushes.compactMap { $0["refused"] as? Int }.reduce(0, +))
        // Every reader of the burst room counted every crossing the wheels made (100 a wheel).
        let clicks = try #require(hostile["clicks"] as? Int)
        #expect(clicks > 0 && clicks == hostile["clicksExpected"] as? Int)
        #expect(try #require(hostile["largestEventsMessage"] as? Int) < 8 * 1024)

        let readings = samples(hostile)
        #expect(
            Set(readings.compactMap { $0["label"] as? String }) == ["start", "warm-up", "before", "during", "after"])
        let before = try #require(readings.first { $0["label"] as? String == "before" })
        let after = try #require(readings.first { $0["label"] as? String == "after" })
        #expect(try #require(after["fds"] as? Int) <= (try #require(before["fds"] as? Int)))
        #expect(output.contains("| hostile | during (round 1:"))
    }

    @Test("a server that refuses connections without hello sooner than the rule's 256 fails the soak, naming it")
    func hostileRuleBroken() throws {
        // Its client limit (120) comes before the 256 waiting for hello the soak expects.
        let server = try ServerProcess(arguments: ["--max-clients", "120"])
        defer { server.stop() }
        let (code, output, json) = try soak(
            server,
            ["--cycles", "0", "--minutes", "0", "--hostile-rounds", "1", "--bursts", "0", "--stalled", "0"]
                + ["--vanished", "0", "--idle-sockets", "0", "--hello-less", "258", "--rushed-rooms", "0"]
                + ["--paced-rooms", "0"], timeout: 300)
        #expect(code == 1, "\(output)")
        #expect(json?["passed"] as? Bool == false, "\(output)")
        #expect(output.contains("FAILED"), "\(output)")
        #expect(output.contains("refused server_full, 2 expected"), "\(output)")
        // Nothing else failed: the soak names the rule, not a consequence.
        let failures = (json?["hostile"] as? [String: Any])?["failures"] as? [String: Int] ?? [:]
        #expect(!failures.isEmpty && failures.keys.allSatisfy { $0.hasPrefix("hello-less:") }, "\(failures)")
    }

    /// `widget-load soak` with a server it starts itself (`--state scratch`, the default), the
    /// replay alone: the store check after it, and the report.
    private func scratchSoak(_ arguments: [String]) throws -> (code: Int32?, output: String, report: [String: Any]?) {
        let child = try ChildProcess(
            executable: Self.binary,
            arguments: ["soak", "--cycles", "0", "--minutes", "0.2", "--hostile-rounds", "0", "--traces", Self.traces]
                + ["--public", PackagePaths.publicDirectory.path] + arguments)
        defer { child.stop() }
        #expect(child.waitForExit(timeout: 120), "the soak did not stop by itself")
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        return (child.exitCode, child.output.text, report(child.output.text))
    }

    @Test(
        "--state scratch: the replay's rooms are written to the state file and come back as they were after a restart"
    )
    func storeRestart() throws {
        let (code, output, json) = try scratchSoak([])
        #expect(code == 0, "\(output)")
        let r = try #require(json, "\(output)")
        #expect(r["state"] as? String == "scratch")
        let store = try #require(r["store"] as? [String: Any], "\(output)")
        #expect(store["rooms"] as? [String] == ["soak-replay-0", "soak-replay-1", "soak-replay-2"])
        #expect(try #require(store["writes"] as? Int) > 0)
        #expect(store["writeFailures"] as? Int == 0)
        // docs/STATE.md: a restart restores every stored room (all live: under --max-rooms).
        #expect(store["restored"] as? Int == 3, "\(store)")
        #expect(store["same"] as? Int == 3, "\(store)")
        #expect((store["failures"] as? [String])?.isEmpty == true, "\(store)")
        #expect(output.contains("Store: "), "\(output)")
    }

    @Test("a server that keeps no state although the soak gave it a file fails the soak, naming the store")
    func storeNotUsed() throws {
        // The real server, told --state none after the soak's --state (the last one counts).
        let scratch = try StateFile()
        let server = scratch.directory.appendingPathComponent("stateless-server").path
        let script = "#!/bin/sh\nexec '\(Products.path("widget-server"))' \"$@\" --state none\n"
        try Self.writeExecutable(script, to: server)
        let (code, output, json) = try scratchSoak(["--server", server])
        #expect(code == 1, "\(output)")
        #expect(json?["passed"] as? Bool == false, "\(output)")
        let problems = json?["problems"] as? [String] ?? []
        #expect(problems.contains("the store: the server wrote nothing to its state file"), "\(problems)")
        #expect(
            problems.contains("the store: the restarted server restored no room from the state file"), "\(problems)")
        // Its rooms came back fresh, not as the replay left them.
        #expect(problems.contains { $0.hasPrefix("the store: room soak-replay-") }, "\(problems)")
        #expect(problems.allSatisfy { $0.hasPrefix("the store: ") }, "\(problems)")
    }

    /// Written through a descriptor closed on exec: a child that another test spawns while it is
    /// open would keep it open, and running the file would fail with ETXTBSY (a CI run did).
    private static func writeExecutable(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    @Test("with --url the server's pid is required: the soak reads its descriptors and memory")
    func needsPID() throws {
        let child = try ChildProcess(
            executable: Self.binary, arguments: ["soak", "--url", "ws://127.0.0.1:9/", "--cycles", "1"])
        defer { child.stop() }
        #expect(child.waitForExit(timeout: 30))
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        #expect(child.exitCode == 64)
        #expect(child.output.text.contains("--url needs --server-pid"), "\(child.output.text)")
    }
}
