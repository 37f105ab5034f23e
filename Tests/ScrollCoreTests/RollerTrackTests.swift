import Testing

@testable import ScrollCore

/// The roller's columns are layers of their own (`Widget.parts`): each draws its strip "0…9 0"
/// once and rolls by its layer's offset, a track from each roll's start (docs/PROTOCOL.md,
/// "Tracks"), so a roll costs its tracks, not a drawing a frame.
struct RollerTrackTests {
    /// The roller scene, its roller's widget index, and the roller, set to `n` at 0 s (no roll).
    static func roller(at n: Int) throws -> (Scene, Int, DigitRoller) {
        let scene = RollerScene.make()
        let i = try #require(scene.widgets.firstIndex { $0.id == "roller" })
        let roller = try #require(scene.widgets[i] as? DigitRoller)
        scene.apply(
            .action(
                ActionInput(widget: "roller", name: "changeTo", args: ["n": .number(Double(n)), "animated": false])),
            at: 0)
        return (scene, i, roller)
    }

    /// The roller's column layers in a frame, ones first.
    static func columns(_ layers: [Layer], widget i: Int) -> [Layer] {
        (0..<DigitRoller.maxColumns).compactMap { k in
            layers.first { $0.id == Scene.partLayerID(widget: i, part: k) }
        }
    }

    @Test("521 → 542: each column rolls on one track from the change, within 0.25 pt of its row every millisecond")
    func rollIsTracks() throws {
        let (scene, i, roller) = try Self.roller(at: 521)
        let rowHeight = roller.frame.height
        var encoder = FrameEncoder()
        _ = encoder.encode(scene.render(theme: .light), time: 0)
        // Its columns re-lay (from 1 to 3) over 0.4 s: drawn where they end.
        scene.advance(to: 0.5)
        _ = encoder.encode(scene.render(theme: .light), time: 0.5)
        scene.apply(.action(ActionInput(widget: "roller", name: "changeTo", args: ["n": 542])), at: 1)
        let layers = scene.render(theme: .light)
        let cols = Self.columns(layers, widget: i)
        #expect(cols.count == 3)
        // The ones turn (1 → 2 via a whole turn) and the tens carry (2 → 4): both on tracks; the
        // hundreds stay at 5.
        let tracks = cols.map(\.track)
        #expect(tracks[0] != nil && tracks[1] != nil && tracks[2] == nil)
        let delta = try DecodedFrame(encoder.encode(layers, time: 1).delta)
        for k in 0..<2 {
            let entry = try #require(delta.layers.first { $0.id == Scene.partLayerID(widget: i, part: k) })
            #expect(entry.ops == nil && entry.track != nil, "column \(k): the same strip, a new track")
        }
        var worst = 0.0, t = 1.0
        while scene.isAnimating, t < 10 {
            t += 0.001
            scene.advance(to: t)
            for k in 0..<2 {
                let track = try #require(tracks[k])
                worst = max(worst, abs(track.offset(at: t).y - (-roller.row(k) * rowHeight)))
            }
            // The same tracks to the end: nothing to send but keeps.
            if Int((t * 1000).rounded()) % 16 == 0 {
                let frame = encoder.encode(scene.render(theme: .light), time: t)
                let sent = try DecodedFrame(frame.delta).layers.filter {
                    $0.ops != nil || $0.offset != nil || $0.track != nil
                }
                #expect(frame.changedLayers == 0, "at \(t) s: \(sent.map(\.id))")
            }
        }
        // Standing still, a column's roll is its eased moves, sent as they are: exact.
        #expect(tracks.prefix(2).allSatisfy { $0?.curves != nil })
        #expect(!scene.isAnimating && worst <= 0.01, "\(worst) pt off")
        // At rest: each column shows its digit of 542 (rows, ones first), where the track ends.
        #expect((0..<3).map { roller.row($0) } == [2, 4, 5])
        for k in 0..<2 { #expect(abs(try #require(tracks[k]).offset(at: t).y + roller.row(k) * rowHeight) < 1e-3) }
    }

    /// The roller scene's roller at 12, changed to `n` at 1 s: its columns' tracks from that change
    /// (every column must have one), and how far each column's shown offset strays from its row,
    /// mod one turn of its strip (the bottom 0 is the top 0), checked every millisecond to the rest,
    /// and from where it stands as the columns re-lay (a new one grows in), every 10 ms.
    static func rollFrom12(to n: Int) throws -> (roller: DigitRoller, tracks: [Track], worst: Double, end: Double) {
        let (scene, i, roller) = try roller(at: 12)
        let rowHeight = roller.frame.height
        scene.advance(to: 1)
        scene.apply(.action(ActionInput(widget: "roller", name: "changeTo", args: ["n": .number(Double(n))])), at: 1)
        // Its columns re-lay while they roll, drawn where they end: their offsets are tracks on both axes.
        let tracks = try Self.columns(scene.render(theme: .light), widget: i).map { try #require($0.track) }
        #expect(tracks.allSatisfy { $0.axes == .both })
        var worst = 0.0, t = 1.0, step = 0
        while scene.isAnimating, t < 30 {
            step += 1
            t = 1 + Double(step) / 1000
            scene.advance(to: t)
            let columns = step % 10 == 0 ? Self.columns(scene.render(theme: .light), widget: i) : []
            for (k, track) in tracks.enumerated() {
                let shown = track.offset(at: t)
                #expect(shown.y > -10 * rowHeight - 1e-3 && shown.y <= 0)
                let apart = abs(shown.y + roller.row(k) * rowHeight).truncatingRemainder(dividingBy: 10 * rowHeight)
                worst = max(worst, min(apart, 10 * rowHeight - apart))
                if k < columns.count { worst = max(worst, abs(shown.x - columns[k].offset.x)) }
            }
        }
        #expect(!scene.isAnimating)
        return (roller, tracks, worst, t)
    }

    @Test(
        "12 → 4,321: the low columns turn hundreds of times, each on one wrapping track of a few knots, within 0.25 pt of its row every millisecond"
    )
    func manyTurnsAreOneLine() throws {
        let (roller, tracks, worst, end) = try Self.rollFrom12(to: 4321)
        let rowHeight = Track.Knot.f32(roller.frame.height)
        #expect(tracks.count == 4)
        for (k, track) in tracks.enumerated() {
            let wrap = try #require(track.wrap)
            #expect(wrap.upper == 0 && wrap.period == 10 * rowHeight)
            #expect(track.knots.count <= 24, "column \(k): \(track.knots.count) knots")
        }
        #expect(worst <= 0.25, "\(worst) pt off")
        #expect((0..<4).map { roller.row($0) } == [1, 2, 3, 4])
        for k in 0..<4 { #expect(tracks[k].offset(at: end).y == -roller.row(k) * rowHeight) }
    }

    @Test(
        "12 → 98,765,432 (the random button's range): the ones column turns ~10 million times, still one wrapping track, wide, within 0.25 pt every millisecond"
    )
    func millionsOfTurnsAreOneLine() throws {
        let (roller, tracks, worst, _) = try Self.rollFrom12(to: 98_765_432)
        #expect(tracks.count == 8)
        #expect(
            tracks[0].wide && tracks.allSatisfy { $0.wrap != nil && $0.knots.count <= 28 },
            "\(tracks.map(\.knots.count))")
        #expect(worst <= 0.25, "\(worst) pt off")
        #expect((0..<8).map { roller.row($0) } == [2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test("300 random changes, some queued: every column that rolls standing still rolls on an eased track")
    func randomRollsAreEased() throws {
        let (scene, i, _) = try Self.roller(at: 12_345)
        var seed: UInt64 = 42
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var t = 1.0, checked = 0
        for _ in 0..<300 {
            t += Double(next(1500)) / 1000
            scene.apply(
                .action(ActionInput(widget: "roller", name: "changeTo", args: ["n": .number(Double(next(99_999)))])),
                at: t)
            for column in Self.columns(scene.render(theme: .light), widget: i) {
                guard let track = column.track, track.axes == .y else { continue }
                checked += 1
                #expect(track.curves != nil, "at \(t) s: layer \(column.id), \(track.knots.count) knots fitted")
            }
        }
        #expect(checked >= 300)
    }

    @Test("the weight readout under a 2,000 pt/s ruler fling: frames only where a roll starts or the ruler rests")
    func readoutUnderAGlide() throws {
        let scene = RulerScene.make()
        var encoder = FrameEncoder()
        var t = try RulerTrackTests.fling(scene, speed: 2000, encoder: &encoder) { _ in }
        var changed = 0, ticks = 0, bytes = 0
        while scene.isAnimating, t < 10 {
            t += 1.0 / 60
            ticks += 1
            scene.advance(to: t)
            let frame = encoder.encode(scene.render(theme: .light), time: t)
            if frame.changedLayers > 0 {
                changed += 1
                bytes += frame.delta.count
            }
        }
        // The readout rolls each change it is given in 0.3 s, the newest change waiting: over a
        // glide of ~4 s about a roll every 0.3 s, a frame each, and the ruler's rest.
        #expect(ticks > 200, "\(ticks) ticks")
        #expect(changed <= Int(Double(ticks) / 60 / DigitRoller.readoutInterval) + 4, "\(changed) frames of \(ticks)")
        #expect(bytes <= 3000, "\(bytes) B in \(changed) frames")
    }
}
