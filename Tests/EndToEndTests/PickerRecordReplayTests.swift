import Foundation
import LoopbackTools
import ScrollCore
import Testing
import WebSocketClient

/// A session on the picker scene, played live against the real server with `--record`, is
/// reproduced by `widget-replay` from the recorded trace: every click, moved value and reported
/// value, in the same order, at the same scene times: events are stamped with exact crossing
/// times worked out from the client's timestamps, never with frame or arrival times.
@Suite struct PickerRecordReplayTests {
    @Test("live picker events (a fling, a drag into the N edge, keys) equal widget-replay's from the trace")
    func liveEqualsReplay() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("picker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServerProcess(arguments: ["--record", dir.path])
        let c = try WireClient(server, hello: false)
        try c.send(.hello(.init(room: "dial", scene: "picker")))
        _ = try c.waitFor("welcome") { $0["type"] as? String == "welcome" }

        // The picker scene's picker spans y 60–130. A fling: 80 pt left in 0.1 s (800 pt/s).
        let y = 95.0
        try c.pointer(.down, x: 300, y: y, t: 1000)
        for i in 1...10 { try c.pointer(.move, x: 300 - 8 * Double(i), y: y, t: 1000 + 10 * Double(i)) }
        try c.pointer(.up, x: 220, y: y, t: 1100)
        #expect(try c.finalValue("picker", timeout: 10) == 48)
        // A slow drag far past N (700 pt left from 48), held before lifting: stops on 100.
        try c.pointer(.down, x: 380, y: y, t: 5000)
        for i in 1...20 { try c.pointer(.move, x: 380 - 35 * Double(i), y: y, t: 5000 + 16 * Double(i)) }
        try c.pointer(.up, x: -320, y: y, t: 5500)
        #expect(try c.finalValue("picker", timeout: 10) == 100)
        try c.send(.key(key: "PageDown", widget: "picker", t: 8000))
        #expect(try c.finalValue("picker", timeout: 10) == 90)
        try c.send(.key(key: "Home", widget: "picker", t: 8500))
        #expect(try c.finalValue("picker", timeout: 10) == 0)

        // As the page plays them: a glide's clicks, moves and values went ahead at its start.
        let live = try events(c.playedEvents())
        // 48 up, 52 up, 10 down, 90 down: one moved and one haptic each.
        #expect(live.filter { $0.type == "moved" }.count == 48 + 52 + 10 + 90)
        #expect(live.filter { $0.type == "haptic" }.count == 48 + 52 + 10 + 90)

        let trace = dir.appendingPathComponent("dial.jsonl")
        let binary = Products.path("widget-replay")
        let child = try ChildProcess(executable: binary, arguments: [trace.path])
        #expect(child.waitForExit(timeout: 30))
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        let output = try #require(
            try JSONSerialization.jsonObject(with: Data(child.output.text.utf8)) as? [String: Any])
        let replayed = try events(try #require(output["events"] as? [[String: Any]]))

        #expect(replayed.count == live.count)
        for (i, (a, b)) in zip(replayed, live).enumerated() {
            #expect(a.type == b.type && a.widget == b.widget && a.value == b.value, "event \(i): \(a) vs \(b)")
            // The trace holds arrival times to the microsecond.
            #expect(abs(a.t - b.t) < 1e-5, "event \(i): \(a) vs \(b)")
        }
    }

    private struct Event: CustomStringConvertible {
        var t: Double, widget: String, type: String, value: Double?
        var description: String { "\(type) \(value.map { "\($0)" } ?? "-") @\(t)" }
    }

    private func events(_ list: [[String: Any]]) throws -> [Event] {
        try list.map { e in
            Event(
                t: try #require(e["t"] as? Double), widget: try #require(e["widget"] as? String),
                type: try #require(e["type"] as? String), value: e["value"] as? Double)
        }
    }
}
