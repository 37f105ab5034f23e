import Testing

@testable import ScrollCore

/// A ruler glide's value reports known at its start (`Widget.eventsAhead`, docs/PROTOCOL.md
/// "Events ahead"): the same reports the frame clock brings one tick at a time, whatever the
/// tick, but the rest's final one.
struct EventsAheadDialTests {
    /// The ruler scene flung at `speed` pt/s; the release time.
    static func flung(speed: Double) throws -> (scene: Scene, release: Double) {
        let scene = RulerScene.make()
        var encoder = FrameEncoder()
        let release = try RulerTrackTests.fling(scene, speed: speed, encoder: &encoder) { _ in }
        _ = scene.takeEvents()
        return (scene, release)
    }

    /// The ruler's events from `start` until the scene rests, a tick every `step` s.
    static func streamed(_ scene: Scene, from start: Double, step: Double) -> [SceneEvent] {
        var t = start
        var events: [SceneEvent] = []
        while scene.isAnimating && t < start + 20 {
            t += step
            scene.advance(to: t)
            events += scene.takeEvents().filter { $0.widget == "ruler" }
        }
        return events
    }

    static func expectSame(_ ahead: [SceneEvent], _ streamed: [SceneEvent]) {
        #expect(ahead.count == streamed.count)
        for (a, s) in zip(ahead, streamed) {
            #expect(abs(a.time - s.time) <= 1e-9)
            #expect(a.kind == s.kind)
        }
    }

    @Test(
        "a fling's reports ahead are the frame clock's at 60 and 120 Hz, the final one left to the rest",
        arguments: [100.0, 500, 2000, 8000])
    func flingAhead(speed: Double) throws {
        let (scene, release) = try Self.flung(speed: speed)
        let ahead = scene.eventsAhead(of: "ruler")
        #expect(scene.glides.map(\.widget) == ["ruler"])
        #expect(ahead.allSatisfy { $0.time > release })
        #expect(ahead.allSatisfy { if case .value(_, _, false) = $0.kind { true } else { false } })
        for step in [1.0 / 60, 1.0 / 120] {
            let (again, _) = try Self.flung(speed: speed)
            let streamed = Self.streamed(again, from: release, step: step)
            let final = try #require(streamed.last)
            guard case .value(_, _, true) = final.kind else {
                Issue.record("the last report is not final: \(final)")
                continue
            }
            Self.expectSame(ahead, Array(streamed.dropLast()))
            // Moving reports at most one per 16 ms (WIDGETS.md §1): a 2,000 pt/s fling makes dozens.
            for (a, b) in zip(ahead, ahead.dropFirst()) { #expect(b.time - a.time >= 0.016 - 1e-9) }
        }
        if speed >= 2000 { #expect(ahead.count >= 30) }
        // The fastest fling (VelocityTracker.maxSpeed) stays within what a room sends ahead (128).
        #expect(ahead.count <= 128)
    }

    @Test("a key step's and setValue's reports go ahead too; nothing while held or at rest")
    func keysAndHolds() throws {
        let scene = RulerScene.make()
        #expect(scene.glides.isEmpty)
        #expect(scene.eventsAhead(of: "ruler").isEmpty)
        scene.apply(.action(ActionInput(widget: "ruler", name: "setValue", args: ["value": .number(75)])), at: 1)
        _ = scene.takeEvents()
        let ahead = scene.eventsAhead(of: "ruler")
        let key = try #require(scene.glides.first?.key)
        #expect(ahead.count >= 2)
        let again = RulerScene.make()
        again.apply(.action(ActionInput(widget: "ruler", name: "setValue", args: ["value": .number(75)])), at: 1)
        _ = again.takeEvents()
        Self.expectSame(ahead, Array(Self.streamed(again, from: 1, step: 1.0 / 60).dropLast()))

        // A finger down catches it: held, no glide; its fling afterwards is a new glide.
        let ruler = try #require(scene.widget("ruler") as? WeightRuler)
        let down = PointerInput(
            phase: .down, key: PointerKey(client: "c", pointer: 1), position: Point(x: 200, y: ruler.frame.midY),
            clientTime: 1.05)
        scene.apply(.pointer(down), at: 1.05)
        #expect(scene.glides.isEmpty)
        // Flicked on from there (3 moves of 20 pt, 16 ms apart, lifted at once): a new glide, a new key.
        var t = 1.05
        var move = down
        move.phase = .move
        for k in 1...3 {
            t += 0.016
            move.position.x = 200 - 20 * Double(k)
            move.clientTime = t
            scene.apply(.pointer(move), at: t)
        }
        move.phase = .up
        scene.apply(.pointer(move), at: t)
        let flung = try #require(scene.glides.first)
        #expect(scene.glides.count == 1 && flung.key != key)
        #expect(!scene.eventsAhead(of: "ruler").isEmpty)
    }
}
