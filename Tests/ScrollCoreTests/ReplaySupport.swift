import Foundation
import Testing

@testable import ScrollCore

/// Golden traces live in Traces/ next to this file (excluded from compilation).
enum TraceFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Traces")

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8)
    }

    static func entries(_ name: String) throws -> [TraceEntry] {
        try TraceParser.parse(text(name), name: name)
    }

    /// Every golden trace in the folder, by file name.
    static let all: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".jsonl") }.sorted()

    /// The scene a trace names in its `# scene: NAME` comment (as recorded files do), else
    /// the default scene (demo).
    static func sceneName(_ name: String) throws -> String {
        for line in try text(name).split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ")
            if words.count == 3, words[0] == "#", words[1] == "scene:" { return String(words[2]) }
        }
        return SceneCatalog.defaultName
    }

    /// Replays a golden trace against the scene its header names, in virtual time at `fps`.
    static func replay(_ name: String, fps: Double = 60) throws -> ReplayResult {
        let scene = try sceneName(name)
        try #require(SceneCatalog.standard.make(scene) != nil, "\(name) names an unknown scene \(scene)")
        return Replayer(fps: fps, makeScene: { SceneCatalog.standard.make(scene)! }).run(try entries(name))
    }

    /// `<trace>.expected.json` for `<trace>.jsonl`, as plain Foundation values.
    static func expected(_ name: String) throws -> [String: Any] {
        let base = name.hasSuffix(".jsonl") ? String(name.dropLast(6)) : name
        let data = try Data(contentsOf: url(base + ".expected.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// The replay result as Foundation values, read back from its own JSON text.
func plainJSON(_ value: JSONValue) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(value.serialized.utf8)) as? [String: Any])
}

/// Compares a replay with `<trace>.expected.json` as `widget-replay --expect` does (`ExpectedResult`):
/// every event in order, field by field, times within 1 µs; every widget's fields; the refused
/// lines. Every event time is exact (tick crossings solved for their time, trailing reports at
/// last + 16 ms, rests at their closed-form time), so nothing depends on the frame clock.
func expectMatches(_ result: ReplayResult, _ trace: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let base = trace.hasSuffix(".jsonl") ? String(trace.dropLast(6)) : trace
    let expected = try ExpectedResult(parsing: TraceFiles.text(base + ".expected.json"))
    let difference = expected.firstDifference(from: result.json)
    #expect(
        difference == nil, "\(trace): \(difference.map(String.init(describing:)) ?? "")", sourceLocation: sourceLocation
    )
}

extension ReplayResult {
    var finalValues: [Double] {
        finalEvents.compactMap { if case let .value(v, _, _) = $0.kind { v } else { nil } }
    }

    var rulerValue: Double? { scene.semantics.first { $0.id == "ruler" }?.valueNow }
}
