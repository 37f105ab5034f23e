import Foundation
import ScrollCore
import Testing

@testable import ScrollServer

/// What a watcher of a ruler fling is told of the semantics (docs/PROTOCOL.md, `semantics`),
/// through the real switchboard on a fake clock: only what changed.
struct SwitchboardSemanticsTests {
    /// The text messages client `id` is owed, as written.
    static func texts(_ h: BoardHarness, _ id: UInt64) -> [String] {
        var got: [String] = []
        while h.board.owesMore(id) {
            guard case .write(let payload, let kind) = h.board.next(id) else { break }
            if kind == .text { got.append(payload.text) }
        }
        return got
    }

    @Test(
        "a watcher of a ruler fling gets two patches, release to rest: the ruler's settled value, then the readout's text"
    )
    func flingPatches() throws {
        let h = try SwitchboardEventsAheadTests.driverAndWatcher()
        h.fling(1)
        _ = h.read(1)
        var got = Self.texts(h, 2)
        h.runTicks(readers: [1]) { _, _ in got += Self.texts(h, 2) }
        // The harness's fling (6 moves of 40 pt 16 ms apart) rests on 87.4 kg, as its final event says.
        let events = got.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let finals = events.flatMap { SwitchboardEventsAheadTests.values($0["events"]) }.filter(\.final)
        #expect(finals.map(\.value) == [87.4])
        let semantics = got.filter { $0.hasPrefix(#"{"type":"semantics""#) }
        #expect(
            semantics == [
                #"{"type":"semantics","changed":[{"id":"ruler","valueNow":87.4,"valueText":"87.4 kg"}]}"#,
                #"{"type":"semantics","changed":[{"id":"readout","valueText":"87.4 kg"}]}"#,
            ])
        #expect(semantics.map(\.utf8.count) == [85, 71])
        #expect(semantics.allSatisfy { $0.utf8.count < 100 })
        // Each whole message lists both widgets with every field: 487 B.
        #expect(try #require(h.board.directory.room("r")).semantics.count == 487)
    }
}
