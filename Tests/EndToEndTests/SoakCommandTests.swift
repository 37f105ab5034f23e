import Foundation
import Glibc
import LoopbackTools
import Testing

/// `widget-load soak` (`make soak`) kept working: a short soak against a test server, and
/// one that must fail because the server goes away. No figure is asserted beyond the
/// verdict's own rules (docs/RELIABILITY.md, "Soak"); the real run is `make soak`.
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
