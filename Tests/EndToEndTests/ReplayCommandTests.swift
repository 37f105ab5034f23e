import Foundation
import LoopbackTools
import Testing

/// `widget-replay` as a user runs it: scenes by name, layout, exit codes.
@Suite struct ReplayCommandTests {
    private func run(_ arguments: [String], stdin: String? = nil) throws -> (output: String, exited: Bool) {
        let binary = Products.path("widget-replay")
        let child = try ChildProcess(executable: binary, arguments: arguments)
        let exited = child.waitForExit(timeout: 30)
        // Output is complete once both streams have closed.
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        return (child.output.text, exited)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("--layout --scene ruler prints that scene's name, size and widgets")
    func layoutOfTheRulerScene() throws {
        let (out, exited) = try run(["--layout", "--scene", "ruler"])
        #expect(exited)
        let layout = try json(out)
        #expect(layout["scene"] as? String == "ruler")
        #expect(layout["size"] as? [Double] == [390, 300])
        #expect((layout["widgets"] as? [[String: Any]])?.map { $0["id"] as? String } == ["readout", "ruler"])
    }

    @Test("--layout without --scene is the demo scene, 390 × 844")
    func layoutDefaultsToDemo() throws {
        let layout = try json(try run(["--layout"]).output)
        #expect(layout["scene"] as? String == "demo")
        #expect(layout["size"] as? [Double] == [390, 844])
    }

    @Test("an unknown --scene is refused naming the scenes there are")
    func unknownScene() throws {
        let (out, _) = try run(["--layout", "--scene", "nope"])
        #expect(
            out.contains("no scene \"nope\" (scenes: demo, ruler, picker, picker-free, carousel, roller)"), "\(out)")
    }

    @Test("a trace's '# scene:' line selects the scene; --scene overrides it")
    func recordedSceneHeader() throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("scene-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: trace) }
        // A drag of 100 pt to the left: 72.5 → 73.5 in either scene (same ruler rect).
        var lines = ["# scene: ruler", "{\"t\":0,\"type\":\"down\",\"x\":300,\"y\":214}"]
        for i in 1...10 { lines.append("{\"t\":\(16 * i),\"type\":\"move\",\"x\":\(300 - 10 * i),\"y\":214}") }
        lines.append("{\"t\":300,\"type\":\"up\",\"x\":200,\"y\":214}")
        try lines.joined(separator: "\n").write(to: trace, atomically: true, encoding: .utf8)

        for scene in [nil, "demo"] as [String?] {
            let (out, exited) = try run(
                [trace.path, "--svg", trace.path + ".svg"] + (scene.map { ["--scene", $0] } ?? []))
            #expect(exited)
            let result = try json(out)
            let ruler = (result["widgets"] as? [String: Any])?["ruler"] as? [String: Any]
            #expect(ruler?["value"] as? Double == 73.5)
            let svg = try String(contentsOfFile: trace.path + ".svg", encoding: .utf8)
            // The SVG is drawn at the scene's size: 300 tall for the header's scene, 844 with --scene demo.
            #expect(svg.contains(scene == nil ? "height=\"300\"" : "height=\"844\""), "\(svg.prefix(200))")
            try? FileManager.default.removeItem(atPath: trace.path + ".svg")
        }
    }
}
