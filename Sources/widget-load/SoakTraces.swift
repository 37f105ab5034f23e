import Foundation
import ScrollCore

/// A golden trace made ready for a soak client: placed into the demo scene, its clients'
/// pointers on one connection.
struct SoakTrace {
    let name: String
    let entries: [TraceEntry]
    /// The first line's scene time and the lowest `t` (ms): the trace's two clocks start there.
    let sceneOrigin: Double
    let tOrigin: Double

    /// Pointer ids of a trace's second, third, … client are moved up by this much each, so
    /// that one connection can play every client's lines (first down wins still applies).
    static let pointerStride = 16

    init(name: String, entries: [TraceEntry]) {
        var clients: [String] = []
        for e in entries where !clients.contains(e.client) { clients.append(e.client) }
        self.name = name
        self.entries = entries.map { entry in
            var entry = entry
            entry.pointer += Self.pointerStride * (clients.firstIndex(of: entry.client) ?? 0)
            return entry
        }
        sceneOrigin = entries.first?.sceneTime ?? 0
        tOrigin = entries.map(\.t).min() ?? 0
    }

    /// Every `*.jsonl` in `directory` (docs/TRACES.md), placed into demo from the scene its
    /// `# scene:` line names (else demo).
    static func load(directory: String) throws -> [SoakTrace] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }
                .sorted()
        } catch {
            throw LoadFailure(description: "cannot read the traces in \(directory): \(error.localizedDescription)")
        }
        let demo = DemoScene.make()
        let traces = try names.compactMap { name -> SoakTrace? in
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw LoadFailure(description: "cannot read \(path)")
            }
            let text = String(decoding: data, as: UTF8.self)
            let entries: [TraceEntry]
            do { entries = try TraceParser.parse(text, name: path) } catch {
                throw LoadFailure(description: "\(error)")
            }
            let sceneName = TraceHeader.scene(in: text) ?? SceneCatalog.defaultName
            guard let scene = SceneCatalog.standard.make(sceneName) else {
                throw LoadFailure(description: "\(path): \(SceneCatalog.standard.unknown(sceneName))")
            }
            guard let placed = TraceEntry.placed(entries, from: scene, into: demo) else {
                throw LoadFailure(description: "\(path): its scene \(sceneName) cannot be placed into demo")
            }
            return placed.isEmpty ? nil : SoakTrace(name: name, entries: placed)
        }
        guard !traces.isEmpty else { throw LoadFailure(description: "no traces (*.jsonl) in \(directory)") }
        return traces
    }
}
