import Foundation
import LoopbackTools
import ScrollCore
import Testing
import WebSocketClient

/// "random" is drawn by the server from the room's seed, which the trace
/// records (`# seed: N`), so `widget-replay` draws the same numbers the live room did.
@Suite struct RollerRecordReplayTests {
    @Test("random presses recorded live replay to the same numbers")
    func randomReplays() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("roller-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServerProcess(arguments: ["--record", dir.path])
        let c = try WireClient(server, hello: false)
        try c.send(.hello(.init(room: "dice", scene: "roller")))
        _ = try c.waitFor("welcome") { $0["type"] as? String == "welcome" }
        var live: [Double] = []
        for (i, button) in ["rollerRandom", "rollerPlus1", "rollerRandom"].enumerated() {
            try c.send(.action(.init(widget: button, action: "press", t: 1000 + 100_000 * Double(i))))
            live.append(try c.finalValue("roller", timeout: 30))
        }
        let trace = try String(contentsOf: dir.appendingPathComponent("dice.jsonl"), encoding: .utf8)
        #expect(trace.hasPrefix("# scene: roller\n# seed: "))

        let binary = Products.path("widget-replay")
        let child = try ChildProcess(executable: binary, arguments: [dir.appendingPathComponent("dice.jsonl").path])
        #expect(child.waitForExit(timeout: 30))
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        let output = try #require(
            try JSONSerialization.jsonObject(with: Data(child.output.text.utf8)) as? [String: Any])
        let replayed = (output["events"] as? [[String: Any]] ?? []).filter { $0["final"] as? Bool == true }
            .compactMap { $0["value"] as? Double }
        #expect(replayed == live, "live \(live), replayed \(replayed)")
        #expect(live[1] == live[0] + 1)
    }
}
