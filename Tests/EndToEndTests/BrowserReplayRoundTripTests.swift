import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Input made through the real page is recorded by the server, and replaying that trace
/// offline in virtual time ends on the value the browser showed live: the trace keeps the
/// page's own timestamps, which the physics uses instead of arrival times, so the network's
/// timing cannot make the two differ.
@Suite(.serialized) struct BrowserReplayRoundTripTests {
    static let value = "Number(document.querySelector('[data-widget=ruler]')?.getAttribute('aria-valuenow'))"

    @Test("a drag and a fling recorded from the browser replay offline to the live value")
    func roundTrip() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traces-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServerProcess(arguments: ["--record", dir.path])
        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844, deviceScaleFactor: 1)
        try b.navigate(server.httpURL + "?room=roundtrip")
        try b.waitFor("document.documentElement.dataset.connection === 'open' && \(Self.value) > 0", timeout: 10)

        var t = Date().timeIntervalSince1970
        // A slow drag right by 73 pt, held before release: revises to a tick.
        try b.mouse("mousePressed", x: 100, y: 214, timestamp: t)
        for i in 1...10 {
            try b.mouse("mouseMoved", x: 100 + 7.3 * Double(i), y: 214, timestamp: t + 0.016 * Double(i))
        }
        t += 0.3
        try b.mouse("mouseReleased", x: 173, y: 214, timestamp: t)
        // The final value (announced once the 0.2 s settle ends), not just the value passing 71.8.
        try b.waitFor("document.getElementById('announcer').textContent === '71.8 kg'", timeout: 5)
        #expect(try b.evaluate(Self.value) as? Double == 71.8)
        // A fling left at ~1500 pt/s, released while moving: glides, then rests on a tick.
        t += 0.5
        try b.mouse("mousePressed", x: 330, y: 214, timestamp: t)
        for i in 1...12 { try b.mouse("mouseMoved", x: 330 - 12 * Double(i), y: 214, timestamp: t + 0.008 * Double(i)) }
        try b.mouse("mouseReleased", x: 186, y: 214, timestamp: t + 0.1)
        // Wait for the glide to end: the announcer gets the final value.
        try b.waitFor(
            "document.getElementById('announcer').textContent !== '' && "
                + "document.getElementById('announcer').textContent !== '71.8 kg'", timeout: 10)
        let live = try #require(b.evaluate(Self.value) as? Double)
        #expect(live > 71.8 + 5, "the fling glided well past the drag: \(live)")

        let trace = try String(contentsOf: dir.appendingPathComponent("roundtrip.jsonl"), encoding: .utf8)
        let entries = try TraceParser.parse(trace, name: "roundtrip.jsonl")
        #expect(entries.filter { $0.type == .down }.count == 2)
        let replayed = Replayer().run(entries)
        let ruler = try #require(replayed.scene.semantics.first { $0.id == "ruler" })
        #expect(ruler.valueNow == live)
        let finals = replayed.finalEvents.filter { $0.widget == "ruler" }
        #expect(finals.count == 2)
    }
}
