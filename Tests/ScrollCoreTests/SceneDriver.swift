@testable import ScrollCore

/// Drives a scene as the server's frame clock does, in virtual time: ticks at k/fps while
/// anything moves (computed, never accumulated), each input at exactly its own time.
struct SceneDriver {
    let scene: Scene
    let fps: Double
    private(set) var events: [SceneEvent] = []
    private var k = 0

    init(_ scene: Scene, fps: Double = 60) {
        self.scene = scene
        self.fps = fps
    }

    /// Applies `input` at `time`, ticking before it while anything moves.
    mutating func apply(_ input: SceneInput, at time: Double) {
        while Double(k) / fps < time {
            if scene.isAnimating { scene.advance(to: Double(k) / fps); events += scene.takeEvents() }
            k += 1
        }
        scene.apply(input, at: time)
        events += scene.takeEvents()
    }

    /// Ticks until nothing moves (bounded).
    mutating func settle() {
        while scene.isAnimating, k < 1_000_000 {
            scene.advance(to: Double(k) / fps); events += scene.takeEvents()
            k += 1
        }
    }
}
