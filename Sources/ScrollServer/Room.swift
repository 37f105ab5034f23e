import ScrollCore

/// One scene shared by the clients in it. Renders and encodes a frame once per
/// change and theme; every client of that theme gets the same bytes.
final class Room {
    let name: String
    let scene: Scene
    /// Monotonic time at which scene time 0 was.
    let origin: Double
    var clients: [UInt64] = []
    /// Monotonic time of the last input, tick or join (idle rooms are evicted first).
    var lastActivity: Double

    private var changeCount = 0
    private var frames: [String: CachedFrame] = [:]
    private(set) var semanticsVersion = 0
    private(set) var semanticsJSON = ""
    private var lastSemantics: [Semantics] = []

    private struct CachedFrame {
        var encoder = FrameEncoder()
        var renderedChange = -1
        var frame: EncodedFrame?
        var changed = true
    }

    init(name: String, scene: Scene, origin: Double) {
        self.name = name
        self.scene = scene
        self.origin = origin
        lastActivity = origin
        refreshSemantics()
    }

    func sceneTime(_ now: Double) -> Double { now - origin }

    /// Applies inputs at `now`; returns the events they caused.
    func apply(_ inputs: [SceneInput], now: Double) -> [SceneEvent] {
        let t = sceneTime(now)
        lastActivity = now
        for input in inputs { scene.apply(input, at: t) }
        changed()
        return scene.takeEvents()
    }

    func advance(now: Double) -> [SceneEvent] {
        scene.advance(to: sceneTime(now))
        changed()
        return scene.takeEvents()
    }

    /// The latest frame for `theme`, rendered now if anything changed since the last one.
    /// `changed` is false when it looks exactly like the previous frame.
    func frame(theme: Theme) -> (frame: EncodedFrame, changed: Bool) {
        var cache = frames[theme.name] ?? CachedFrame()
        if cache.renderedChange != changeCount || cache.frame == nil {
            let encoded = cache.encoder.encode(scene.render(theme: theme), time: scene.time)
            cache.changed = cache.frame == nil || encoded.changedLayers > 0
            cache.frame = encoded
            cache.renderedChange = changeCount
            frames[theme.name] = cache
        }
        return (cache.frame!, cache.changed)
    }

    private func changed() {
        changeCount &+= 1
        refreshSemantics()
    }

    private func refreshSemantics() {
        let now = scene.semantics
        guard now != lastSemantics || semanticsJSON.isEmpty else { return }
        lastSemantics = now
        semanticsJSON = ServerMessage.semantics(now)
        semanticsVersion += 1
    }
}
