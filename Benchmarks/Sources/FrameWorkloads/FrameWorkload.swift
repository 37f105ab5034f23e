import ScrollCore

/// The demo scene driven one 60 Hz frame at a time, as the server's frame clock drives a room:
/// each frame applies that frame's inputs, advances the clock, renders and encodes. Deterministic
/// (the scene's dice have a fixed seed), so callgrind counts the same instructions every run.
public final class FrameWorkload {
    public static let fps = 60.0

    public let name: String
    public let scene: Scene
    /// Applies the inputs of frame `k` (1, 2, …) at time k / fps.
    private let inputs: (Scene, Int) -> Void
    private var encoder = FrameEncoder()
    public private(set) var frame = 0

    init(name: String, scene: Scene, inputs: @escaping (Scene, Int) -> Void) {
        self.name = name
        self.scene = scene
        self.inputs = inputs
        _ = encoder.encode(scene.render(theme: .light), time: 0)
    }

    /// The next frame's inputs and clock, before anything is drawn.
    public func step() {
        frame += 1
        inputs(scene, frame)
        scene.advance(to: Double(frame) / Self.fps)
        _ = scene.takeEvents()
    }

    public func render() -> [Layer] { scene.render(theme: .light) }

    public func encode(_ layers: [Layer]) -> EncodedFrame { encoder.encode(layers, time: scene.time) }

    /// One whole frame: step, render, encode.
    public func next() -> EncodedFrame { step(); return encode(render()) }

    public static let names = ["ruler-drag", "all-moving"]

    public static func named(_ name: String) -> FrameWorkload? {
        switch name {
        case "ruler-drag": rulerDrag()
        case "all-moving": allMoving()
        default: nil
        }
    }
}

/// A pointer event of the benchmark's one client.
func pointer(_ scene: Scene, _ phase: PointerPhase, _ id: Int, _ x: Double, _ y: Double, frame: Int) {
    let t = Double(frame) / FrameWorkload.fps
    let key = PointerKey(client: "bench", pointer: id)
    scene.apply(.pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: y), clientTime: t)), at: t)
}
