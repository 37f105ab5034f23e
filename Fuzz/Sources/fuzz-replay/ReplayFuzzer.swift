import ScrollCore

/// libFuzzer entry: a trace replayed as `widget-replay` does, against the scene its
/// `# scene:` line names (else the demo scene, every widget), then drawn. Trace lines are the
/// wire's messages under the wire's rules, so this drives the widgets with hostile but valid
/// input, as a client could: nothing may trap. Kept apart from `fuzz-trace`, whose parser
/// runs a hundred times faster without the scene.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplay(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let entries = try? TraceParser.parse(text, name: "fuzz") else { return 0 }
    let name = headerScene(text).flatMap { SceneCatalog.standard.make($0) != nil ? $0 : nil }
    // Bounded: lines after 10 s of scene time are not applied, and ticking stops there (a
    // held button repeats for as long as it is held, live too).
    let replayer = Replayer(fps: 60, stopAt: 10_000) {
        SceneCatalog.standard.make(name ?? SceneCatalog.defaultName)!
    }
    let scene = replayer.run(entries).scene
    for theme in Theme.all { _ = scene.render(theme: theme) }
    _ = scene.semantics
    return 0
}

/// `NAME` of a `# scene: NAME` line among the first lines (how the server heads its traces).
private func headerScene(_ text: String) -> String? {
    for line in text.split(separator: "\n", maxSplits: 20) where line.hasPrefix("# scene: ") {
        return String(line.dropFirst("# scene: ".count))
    }
    return nil
}
