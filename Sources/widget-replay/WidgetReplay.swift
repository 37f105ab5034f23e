import ArgumentParser
import Foundation
import ScrollCore

struct WidgetReplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget-replay",
        abstract: "Replays an input trace (docs/TRACES.md) against a scene, in virtual time or live.",
        discussion: "Offline (default) the trace runs in virtual time and the result JSON goes to stdout: "
            + "every widget's final value and every event. With --url it is played live against a server. "
            + "With --expect it compares the result with a saved one instead of printing it. "
            + "Exit codes: 1 bad trace (the message names the line) or a result that differs from --expect's, "
            + "2 I/O or connection, 64 bad options (or an --expect file that is missing or not a result).",
        version: "widget-replay \(ProductVersion.description)")

    @Argument(help: "The trace file (JSON Lines); - reads standard input. Not needed with --layout.")
    var trace: String?

    @Option(
        name: .customLong("svg"), help: ArgumentHelp("Write the final frame as SVG to this file.", valueName: "file"))
    var svgPath: String?

    @Option(
        name: .customLong("expect"),
        help: ArgumentHelp(
            "Compare the result with this saved one (widget-replay's output, or a golden .expected.json): "
                + "exit 0 when equal, 1 naming the first event or value that differs, with its time.",
            valueName: "file"))
    var expectPath: String?

    @Option(
        name: .customLong("plot"),
        help: ArgumentHelp(
            "Write an SVG of each moving widget's offset (or shown number) and velocity over time, events marked.",
            valueName: "file"))
    var plotPath: String?

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Stop at this scene time (ms: a line's \"at\", or its \"t\" without one) instead of settling.",
            valueName: "ms"))
    var atMilliseconds: Double?

    @Option(help: ArgumentHelp("Virtual frame clock while anything moves (1…1000 Hz).", valueName: "n"))
    var fps = 60.0

    @Option(
        help: ArgumentHelp(
            "Scene to replay against (default: the trace's \"# scene:\" line, else \(SceneCatalog.defaultName)). "
                + "One of: \(SceneCatalog.standard.names.joined(separator: ", ")).", valueName: "name"))
    var scene: String?

    @Flag(help: "Print the scene's name, size and each widget's id and rect in scene points as JSON, and exit.")
    var layout = false

    @Option(help: ArgumentHelp("Theme of the SVG frame: light or dark.", valueName: "name"))
    var theme = "light"

    @Option(
        help: ArgumentHelp(
            "Play the trace live, at its recorded pace, against the server at ws://HOST:PORT/.",
            valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp("Room to join in live mode.", valueName: "name"))
    var room = "replay"

    func validate() throws {
        guard layout || trace != nil else { throw ValidationError("missing TRACE (a .jsonl file, or - for stdin)") }
        guard fps.isFinite, (1...1000).contains(fps) else { throw ValidationError("--fps must be 1…1000") }
        if let atMilliseconds {
            guard atMilliseconds.isFinite, atMilliseconds >= 0 else {
                throw ValidationError("--at must be a time in ms ≥ 0")
            }
        }
        guard Theme.named(theme) != nil else {
            throw ValidationError("--theme must be one of \(Theme.all.map(\.name).joined(separator: ", "))")
        }
        if let scene, SceneCatalog.standard.make(scene) == nil {
            throw ValidationError("--scene: \(SceneCatalog.standard.unknown(scene))")
        }
        guard ClientMessage.isValidRoom(room) else {
            throw ValidationError("--room must be \(ClientMessageLimits.roomPattern)")
        }
        if url != nil, atMilliseconds != nil {
            throw ValidationError("--at is for offline replay; live mode plays the whole trace")
        }
        if url != nil, expectPath != nil || plotPath != nil {
            throw ValidationError("--expect and --plot are for offline replay")
        }
    }

    func run() throws {
        let theme = Theme.named(theme) ?? .light
        if layout {
            print(Self.layoutJSON(try makeScene(scene ?? SceneCatalog.defaultName)()).serialized)
            return
        }
        let text = try loadTrace()
        let sceneName = scene ?? TraceHeader.scene(in: text) ?? SceneCatalog.defaultName
        let entries = try parse(text)
        if let url {
            let live = try LiveReplay(url: url, room: room, scene: sceneName, theme: theme).play(entries)
            print(PrettyJSON.render(.object([("widgets", live.widgets)])))
            if let svgPath { try write(try live.svg(), to: svgPath) }
            return
        }
        let expected = try expectPath.map(loadExpected)
        let make = try makeScene(sceneName), seed = TraceHeader.seed(in: text) ?? 0
        let motion = MotionRecording()
        let result = Replayer(
            fps: fps, stopAt: atMilliseconds,
            makeScene: {
                let scene = make()
                scene.dice.reseed(seed)
                return scene
            }, onStep: plotPath == nil ? nil : motion.record
        ).run(entries)
        for refusal in result.refused { warn("refused \(refusal.entry.jsonLine): \(refusal.message)") }
        if let svgPath { try write(try SVGRenderer.render(result.scene, theme: theme), to: svgPath) }
        if let plotPath {
            let title = "\(trace ?? "-") — scene \(sceneName), \(JSONValue.format(fps)) fps"
            try write(
                MotionPlot.render(motion.series, events: result.events, duration: result.time, title: title),
                to: plotPath)
        }
        guard let expected, let expectPath else {
            print(PrettyJSON.render(result.json))
            return
        }
        if let difference = expected.firstDifference(from: result.json) {
            throw Failure.differs("the result differs from \(expectPath)\n\(difference)")
        }
        print("the result matches \(expectPath): \(result.events.count) events, \(result.scene.widgets.count) widgets")
    }

    /// `--expect`'s file, read before the replay: missing or not a result is a usage error.
    private func loadExpected(_ path: String) throws -> ExpectedResult {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure.usage("--expect: cannot read \(path)")
        }
        do {
            return try ExpectedResult(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw Failure.usage("--expect: \(path) is not a replay result: \(error)")
        }
    }

    private func makeScene(_ name: String) throws -> () -> Scene {
        guard SceneCatalog.standard.make(name) != nil else {
            throw Failure.badTrace(SceneCatalog.standard.unknown(name))
        }
        return { SceneCatalog.standard.make(name)! }
    }

    private func loadTrace() throws -> String {
        let path = trace ?? "-"
        if path == "-" {
            return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure.io("cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private func parse(_ text: String) throws -> [TraceEntry] {
        let path = trace ?? "-"
        do {
            return try TraceParser.parse(text, name: path == "-" ? "stdin" : path)
        } catch {
            throw Failure.badTrace(error.description)
        }
    }

    private func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Failure.io("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// `{"scene": name, "size": [w, h], "widgets": [{"id": …, "rect": [x, y, w, h]}, …]}` for writing traces by hand.
    static func layoutJSON(_ scene: Scene) -> JSONValue {
        func rect(_ r: Rect) -> JSONValue { .array([.number(r.x), .number(r.y), .number(r.width), .number(r.height)]) }
        return .object([
            ("scene", .string(scene.name)),
            ("size", .array([.number(scene.size.width), .number(scene.size.height)])),
            ("widgets", .array(scene.widgets.map { .object([("id", .string($0.id)), ("rect", rect($0.frame))]) })),
        ])
    }
}
