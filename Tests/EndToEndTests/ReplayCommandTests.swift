import Foundation
import LoopbackTools
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `widget-replay` as a user runs it: scenes by name, layout, exit codes; `--expect` against a
/// golden trace's expected file (docs/TRACES.md, "A test tool"), and `--plot`.
@Suite struct ReplayCommandTests {
    static let traces = PackagePaths.root.appendingPathComponent("Tests/ScrollCoreTests/Traces")
    static let fling = traces.appendingPathComponent("fling.jsonl").path
    static let flingExpected = traces.appendingPathComponent("fling.expected.json")

    private func run(_ arguments: [String], stdin: String? = nil) throws -> (output: String, exited: Bool) {
        let (output, code) = try runForCode(arguments)
        return (output, code != nil)
    }

    /// Its output (stdout and stderr, interleaved) and exit code (nil: it did not exit in 30 s).
    private func runForCode(_ arguments: [String]) throws -> (output: String, code: Int32?) {
        let binary = Products.path("widget-replay")
        let child = try ChildProcess(executable: binary, arguments: arguments)
        let exited = child.waitForExit(timeout: 30)
        // Output is complete once both streams have closed.
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        return (child.output.text, exited ? child.exitCode : nil)
    }

    /// A temporary file holding fling's expected result with `old` replaced by `new`; removed by the caller.
    private func changedExpectation(_ old: String, _ new: String) throws -> URL {
        let text = try String(contentsOf: Self.flingExpected, encoding: .utf8)
        #expect(text.components(separatedBy: old).count == 2, "\(old) is in the expected file once")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID().uuidString).json")
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("--expect with the golden expected file: exit 0, saying what matched")
    func expectEqual() throws {
        let (out, code) = try runForCode([Self.fling, "--expect", Self.flingExpected.path])
        #expect(code == 0, "\(out)")
        #expect(out == "the result matches \(Self.flingExpected.path): 59 events, 12 widgets", "\(out)")
    }

    @Test("--expect with one event's value changed: exit 1, naming that event, its time and the value")
    func expectValueChanged() throws {
        let file = try changedExpectation(#""value": 75.1, "text": "75.1 kg""#, #""value": 75.2, "text": "75.1 kg""#)
        defer { try? FileManager.default.removeItem(at: file) }
        let (out, code) = try runForCode([Self.fling, "--expect", file.path])
        #expect(code == 1)
        let lines = out.components(separatedBy: "\n")
        #expect(lines.first == "widget-replay: the result differs from \(file.path)", "\(out)")
        #expect(lines.dropFirst().first == #"at 0.234 s, event 15 (ruler value): "value" is 75.1, expected 75.2"#)
        #expect(lines.last?.hasPrefix(#"  expected: {"t":0.234,"widget":"ruler","type":"value","value":75.2,"#) == true)
    }

    @Test("--expect with one event left out: exit 1, naming the first event that differs")
    func expectEventRemoved() throws {
        let line =
            #"    {"t": 0.234, "widget": "ruler", "type": "value", "value": 75.1, "text": "75.1 kg", "final": false},"#
        let file = try changedExpectation(line + "\n", "")
        defer { try? FileManager.default.removeItem(at: file) }
        let (out, code) = try runForCode([Self.fling, "--expect", file.path])
        #expect(code == 1)
        #expect(
            out.contains(
                "at 0.234 s, event 15 (ruler value) is not expected (the result has 59 events, the expectation 58)"),
            "\(out)")
    }

    @Test("--expect with a file that is missing, or is not a result: exit 64, saying so")
    func expectBadFile() throws {
        let missing = try runForCode([Self.fling, "--expect", "/nonexistent/expected.json"])
        #expect(missing.code == 64)
        #expect(missing.output == "widget-replay: --expect: cannot read /nonexistent/expected.json")
        let file = try changedExpectation(#""events": ["#, #""happenings": ["#)
        defer { try? FileManager.default.removeItem(at: file) }
        let invalid = try runForCode([Self.fling, "--expect", file.path])
        #expect(invalid.code == 64)
        #expect(
            invalid.output
                == "widget-replay: --expect: \(file.path) is not a replay result: \"events\" must be an array of events"
        )
    }

    @Test("--plot: a well-formed SVG, one reading and one velocity path per moving widget, a marker per event")
    func plot() throws {
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("plot-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        let (out, code) = try runForCode([Self.fling, "--plot", svg.path])
        #expect(code == 0)
        let result = try json(out)
        let events = try #require(result["events"] as? [[String: Any]])

        let elements = SVGElements()
        let parser = XMLParser(data: try Data(contentsOf: svg))
        parser.delegate = elements
        #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        #expect(elements.names.first == "svg")
        // The fling drags and flings the ruler; the weight readout rolls after it; nothing else moves.
        #expect(elements.classed("position").map { $0["data-widget"] } == ["readout", "ruler"])
        #expect(elements.classed("velocity").map { $0["data-widget"] } == ["readout", "ruler"])
        let markers = elements.classed("event")
        #expect(markers.count == events.count && events.count == 59)
        let marked = markers.compactMap { $0["data-t"].flatMap(Double.init) }
        let happened = events.compactMap { $0["t"] as? Double }
        #expect(
            marked.count == 59 && zip(marked, happened).allSatisfy { abs($0 - $1) < 1e-12 }, "\(marked) \(happened)")
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

    @Test(
        "live --svg after a carousel delete paints the carousel as the offline replay does: its tweens at the room's time, Moon faded out"
    )
    func liveSVGPlaysTweens() throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString).jsonl")
        let (live, offline) = (trace.path + ".live.svg", trace.path + ".svg")
        defer { for path in [trace.path, live, offline] { try? FileManager.default.removeItem(atPath: path) } }
        // Moon (index 1) deleted; Star stays centred, the rest close the gap.
        try [
            "# scene: carousel",
            #"{"t":0,"type":"action","widget":"carousel","action":"delete","args":{"index":1}}"#,
        ].joined(separator: "\n").write(to: trace, atomically: true, encoding: .utf8)
        let server = try ServerProcess()
        // Live it waits up to 5 s for a final value (a delete makes none), then draws what it holds.
        #expect(try run([trace.path, "--url", server.wsURL, "--room", "live-svg", "--svg", live]).exited)
        #expect(try run([trace.path, "--svg", offline]).exited)
        // The carousel's layer (its widget is the scene's first): the same elements both ways.
        func carousel(_ path: String) throws -> String {
            let svg = try String(contentsOfFile: path, encoding: .utf8)
            let start = try #require(svg.range(of: "<g id=\"layer-1\">"))
            let end = try #require(svg.range(of: "<g id=\"layer-2\">", range: start.upperBound..<svg.endIndex))
            return String(svg[start.lowerBound..<end.lowerBound])
        }
        let (a, b) = (try carousel(live), try carousel(offline))
        #expect(a == b, "live:\n\(a.prefix(3000))\noffline:\n\(b.prefix(3000))")
        // Moon's tile is there, faded out: the tween played to its end, not drawn at its start.
        #expect(a.contains("fill-opacity=\"0\""))
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

/// The elements of an SVG, with their attributes, in document order.
final class SVGElements: NSObject, XMLParserDelegate {
    private(set) var names: [String] = []
    private(set) var attributes: [[String: String]] = []

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        names.append(name)
        self.attributes.append(attributes)
    }

    /// The attributes of each element whose class list has `name`.
    func classed(_ name: String) -> [[String: String]] {
        attributes.filter { ($0["class"] ?? "").split(separator: " ").contains(Substring(name)) }
    }
}
