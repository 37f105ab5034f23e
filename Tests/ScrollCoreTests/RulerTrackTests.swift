import Testing

@testable import ScrollCore

/// A ruler glide goes out as one drawing and one track (docs/PROTOCOL.md, "Tracks"): the frames
/// after the release keep the ruler's layer as it is until it rests, and the track is within
/// 0.25 pt of where the ruler is at every tick.
struct RulerTrackTests {
    /// What the ruler's layer costs in one frame entry (bytes), and what kind of entry it is.
    static func entry(_ layer: DecodedFrame.Layer) -> (kind: String, bytes: Int) {
        var track: [UInt8] = []
        if let t = layer.track { FrameEncoder.appendTrack(&track, t) }
        switch (layer.ops, layer.offset, layer.track) {
        case (nil, nil, nil): return ("keep", 3)
        case (nil, .some, nil): return ("move", 11)
        case (let ops?, .some, nil): return ("ops", 15 + ops.count)
        case (nil, nil, .some): return ("track", 3 + track.count)
        case (let ops?, nil, .some): return ("ops+track", 7 + track.count + ops.count)
        default: return ("?", 0)
        }
    }

    /// A finger drags the scene's ruler left at `speed` pt/s for 0.1 s (a move a tick) and lifts:
    /// each frame through `encoder` and handed to `received`; the time of the release.
    static func fling(
        _ scene: Scene, speed: Double, encoder: inout FrameEncoder, received: (EncodedFrame) throws -> Void
    ) throws -> Double {
        let ruler = try #require(scene.widget("ruler") as? WeightRuler)
        let key = PointerKey(client: "c", pointer: 1)
        var t = 1.0
        func pointer(_ phase: PointerPhase, _ x: Double) throws {
            scene.apply(
                .pointer(
                    PointerInput(phase: phase, key: key, position: Point(x: x, y: ruler.frame.midY), clientTime: t)),
                at: t)
            try received(encoder.encode(scene.render(theme: .light), time: t))
        }
        try pointer(.down, 300)
        for k in 1...6 {
            t += 1.0 / 60
            try pointer(.move, 300 - speed * Double(k) / 60)
        }
        try pointer(.up, 300 - speed * 6 / 60)
        return t
    }

    @Test(
        "a 2,000 pt/s fling: one drawing and one track at the release, kept to the rest and at rest",
        arguments: [2000.0, 500])
    func flingIsOneTrack(speed: Double) throws {
        let scene = RulerScene.make()
        let ruler = try #require(scene.widget("ruler") as? WeightRuler)
        let id = UInt16(try #require(scene.widgets.firstIndex { $0 === ruler }) + 1)
        var encoder = FrameEncoder()
        var release: DecodedFrame?
        var t = try Self.fling(scene, speed: speed, encoder: &encoder) { release = try DecodedFrame($0.delta) }
        let first = try #require(release?.layers.first { $0.id == id })
        #expect(Self.entry(first).kind == "ops+track")
        let track = try #require(first.track)
        // A fling is no ease: fitted (Hermite knots, no curves).
        #expect(track.curves == nil)
        var kinds: [String] = []
        var bytes = Self.entry(first).bytes
        var worst = 0.0
        while scene.isAnimating && t < 10 {
            t += 1.0 / 60
            scene.advance(to: t)
            let frame = try DecodedFrame(encoder.encode(scene.render(theme: .light), time: t).delta)
            let layer = try #require(frame.layers.first { $0.id == id })
            kinds.append(Self.entry(layer).kind)
            if Self.entry(layer).kind != "keep" { bytes += Self.entry(layer).bytes }
            if ruler.isAnimating { worst = max(worst, abs(track.offset(at: t).x - ruler.layerOffset.x)) }
        }
        #expect(!scene.isAnimating)
        #expect(worst <= 0.25, "\(worst) pt off")
        // Kept until it rests, and at rest: the glide's drawing shows the rest, where its track ends.
        #expect(Set(kinds) == ["keep"], "\(kinds)")
        #expect(ruler.tenths % 1 == 0 && ruler.contentOffset == Double(ruler.tenths) * WeightRuler.scale.spacing)
        // Frame by frame it was 11 B a tick for the offset and the ticks again every 200 pt (~9 KB
        // for 2,000 pt/s); now the glide's drawing and track (a keep is 3 B in a frame that goes
        // anyway, for the readout).
        #expect(bytes <= 450, "\(bytes) B for the ruler's layer from release to rest")
    }

    @Test(
        "at rest after a glide, what a receiver of the frames holds draws as the scene does (the same SVG) and shows what a ruler restored there shows"
    )
    func restIsAsRestored() throws {
        let scene = RulerScene.make()
        let ruler = UInt16(try #require(scene.widgets.firstIndex { $0.id == "ruler" }) + 1)
        var encoder = FrameEncoder()
        var held: [UInt16: HeldLayer] = [:]
        var ids: [UInt16] = []
        var tracks = 0
        func receive(_ encoded: EncodedFrame) throws {
            let frame = try DecodedFrame(ids.isEmpty ? encoded.full : encoded.delta)
            ids = frame.layers.map(\.id)
            for layer in frame.layers {
                if layer.id == ruler, layer.track != nil { tracks += 1 }
                // Unwrapped before it is stored: required into the optional slot, a nil would pass.
                let applied = try #require(layer.applied(to: held[layer.id]), "layer \(layer.id) of frame \(frame.seq)")
                held[layer.id] = applied
            }
        }
        var t = try Self.fling(scene, speed: 2000, encoder: &encoder, received: receive)
        while scene.isAnimating && t < 10 {
            t += 1.0 / 60
            scene.advance(to: t)
            try receive(encoder.encode(scene.render(theme: .light), time: t))
        }
        #expect(!scene.isAnimating && tracks == 1, "at rest by \(t) s, after \(tracks) tracks")
        let layers = ids.compactMap { held[$0] }
        let receiver = SVGRenderer.render(
            ops: try layers.map { try DisplayListDecoder.decode($0.ops) }, ids: ids,
            offsets: layers.map { $0.offset(at: t) },
            size: scene.size)
        let restored = RulerScene.make()
        try restored.restore(scene.snapshot())
        #expect(restored.snapshot() == scene.snapshot())
        #expect(try SVGRenderer.render(scene, theme: .light) == receiver)
        // A restored ruler is drawn by its anchor, the rested one keeps its glide's drawing: what
        // they show is the same.
        let frame = try #require(restored.widget("ruler")).frame
        let restoredLayer = try #require(restored.render(theme: .light).first { $0.id == ruler })
        let received = try #require(held[ruler])
        #expect(
            try ScreenGeometry.sameShown(
                (restoredLayer.list.bytes, restoredLayer.offset), (received.ops, received.offset(at: t)),
                within: frame))
        // Not the same bytes: the glide's drawing reaches past the rest's.
        #expect(restoredLayer.list.bytes != received.ops)
        // And it glided somewhere: 72.5 kg is where the scene began.
        #expect(try #require(scene.widget("ruler") as? WeightRuler).tenths != 725)
    }

    @Test("a key mid-glide sends a new track; a finger catching the glide ends it (a fixed offset)")
    func newInputNewTrack() throws {
        let scene = RulerScene.make()
        let ruler = try #require(scene.widget("ruler") as? WeightRuler)
        let id = UInt16(try #require(scene.widgets.firstIndex { $0 === ruler }) + 1)
        var encoder = FrameEncoder()
        func rulerEntry() throws -> DecodedFrame.Layer {
            let frame = try DecodedFrame(encoder.encode(scene.render(theme: .light), time: scene.time).delta)
            return try #require(frame.layers.first { $0.id == id })
        }
        _ = try rulerEntry()
        scene.apply(.action(ActionInput(widget: "ruler", name: "setValue", args: ["value": .number(80)])), at: 1)
        let first = try rulerEntry()
        #expect(first.track != nil)
        scene.advance(to: 1.05)
        #expect(try rulerEntry().track == nil && rulerEntry().ops == nil, "kept while it glides")
        scene.apply(.key("ArrowRight", widget: "ruler"), at: 1.1)
        let second = try rulerEntry()
        #expect(second.track != nil && second.track != first.track, "a new path, a new track")
        let key = PointerKey(client: "c", pointer: 1)
        scene.apply(
            .pointer(PointerInput(phase: .down, key: key, position: Point(x: 200, y: ruler.frame.midY), clientTime: 0)),
            at: 1.15)
        let caught = try rulerEntry()
        #expect(caught.track == nil && caught.offset != nil, "held: a fixed offset, frame by frame")
    }

    @Test("a key step is a track too, its ease sent as it is; a drag is not (offsets frame by frame)")
    func keysAndDrags() throws {
        let scene = RulerScene.make()
        let ruler = try #require(scene.widget("ruler") as? WeightRuler)
        let index = try #require(scene.widgets.firstIndex { $0 === ruler })
        scene.apply(.key("ArrowRight", widget: "ruler"), at: 1)
        let track = try #require(scene.render(theme: .light).first { $0.id == UInt16(index + 1) }?.track)
        #expect(abs(track.end - 1.2) < 1e-6)
        // Its ease (0.2 s, ease-in-out) as it is: two knots, the curve CSS names, exact.
        #expect(track.knots.count == 2 && track.curves == [CubicBezierEasing.easeInOut.float32])
        var worst = 0.0
        for ms in 1000...1250 {
            let t = Double(ms) / 1000
            scene.advance(to: t)
            worst = max(worst, abs(track.offset(at: t).x - ruler.layerOffset.x))
        }
        #expect(worst < 1e-3, "\(worst) pt off")
        scene.advance(to: 2)
        #expect(scene.render(theme: .light).first { $0.id == UInt16(index + 1) }?.track == nil)
        let key = PointerKey(client: "c", pointer: 1)
        scene.apply(
            .pointer(PointerInput(phase: .down, key: key, position: Point(x: 200, y: ruler.frame.midY), clientTime: 2)),
            at: 2)
        scene.apply(
            .pointer(
                PointerInput(phase: .move, key: key, position: Point(x: 150, y: ruler.frame.midY), clientTime: 2.1)),
            at: 2.1)
        #expect(scene.render(theme: .light).first { $0.id == UInt16(index + 1) }?.track == nil)
    }
}
