/// Replays a trace against a fresh scene in virtual time: no clock, no sleeping.
///
/// Like the server's frame clock, the scene is ticked at multiples of 1/fps while it
/// animates; each input is applied at exactly the scene time it was applied live
/// ((at ?? t)/1000 s), with t/1000 as its client time (velocity). Motion is closed form
/// and every event carries the exact time it happened, so the fps decides only when the
/// scene would be drawn, not what happens or when.
public struct Replayer {
    public var fps: Double
    /// Stop at this scene time (ms, compared with `at ?? t`) instead of settling; later
    /// lines are not applied.
    public var stopAt: Double?
    /// After the last input, tick at most this long (s) waiting for the scene to rest.
    public var settleLimit: Double
    public var makeScene: () -> Scene
    /// Shown the scene after each step: at the start, after every tick and after every input
    /// (`MotionRecording` samples it there). It must not change the scene.
    public var onStep: ((Scene) -> Void)?

    public init(
        fps: Double = 60, stopAt: Double? = nil, settleLimit: Double = 60,
        makeScene: @escaping () -> Scene = { SceneCatalog.standard.make(SceneCatalog.defaultName)! },
        onStep: ((Scene) -> Void)? = nil
    ) {
        precondition(fps.isFinite && fps > 0, "fps must be a positive number")
        self.fps = fps
        self.stopAt = stopAt
        self.settleLimit = settleLimit
        self.makeScene = makeScene
        self.onStep = onStep
    }

    public func run(_ entries: [TraceEntry]) -> ReplayResult {
        var clock = TickClock(scene: makeScene(), fps: fps, onStep: onStep)
        onStep?(clock.scene)
        let end = stopAt.map { $0 / 1000 }
        var refused: [ReplayResult.Refusal] = []
        for entry in entries {
            let time = entry.sceneTime / 1000
            if let end, time > end { break }
            clock.tick(before: time)
            for input in entry.sceneInputs {
                // As live: an action the scene cannot perform is refused, and the rest goes on.
                if case .action(let action) = input {
                    do { try clock.scene.check(action) } catch {
                        refused.append(ReplayResult.Refusal(entry: entry, message: error.message))
                        continue
                    }
                }
                clock.apply(input, at: time)
            }
        }
        if let end {
            clock.tick(before: end)
            clock.advance(to: end)
        } else {
            clock.settle(until: clock.scene.time + settleLimit)
        }
        return ReplayResult(scene: clock.scene, events: clock.events, refused: refused)
    }
}

/// The virtual frame clock: tick k falls at k/fps (computed, never accumulated).
private struct TickClock {
    let scene: Scene
    let fps: Double
    let onStep: ((Scene) -> Void)?
    var events: [SceneEvent] = []
    private var next = 0

    init(scene: Scene, fps: Double, onStep: ((Scene) -> Void)?) {
        self.scene = scene; self.fps = fps; self.onStep = onStep
    }

    private func time(ofTick k: Int) -> Double { Double(k) / fps }

    /// Ticks strictly before `limit` while anything moves; an idle scene skips ahead
    /// (the server's clock does not tick an idle room either).
    mutating func tick(before limit: Double) {
        while time(ofTick: next) < limit {
            guard scene.isAnimating else {
                skip(to: limit)
                return
            }
            advance(to: time(ofTick: next))
            next += 1
        }
    }

    /// Ticks while anything moves, up to `limit`.
    mutating func settle(until limit: Double) {
        while scene.isAnimating, time(ofTick: next) <= limit {
            advance(to: time(ofTick: next))
            next += 1
        }
    }

    mutating func apply(_ input: SceneInput, at time: Double) {
        scene.apply(input, at: time)
        events += scene.takeEvents()
        onStep?(scene)
    }

    mutating func advance(to time: Double) {
        scene.advance(to: time)
        events += scene.takeEvents()
        onStep?(scene)
    }

    /// The first tick at or after `limit`.
    private mutating func skip(to limit: Double) {
        var k = max(next, Int((limit * fps).rounded(.down)))
        while time(ofTick: k) < limit { k += 1 }
        next = k
    }
}
