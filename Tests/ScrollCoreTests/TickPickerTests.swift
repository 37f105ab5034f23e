import Foundation
import Testing

@testable import ScrollCore

/// Drives a picker scene with a virtual frame clock (no real time anywhere).
struct PickerRun {
    var driver: SceneDriver
    let y = PickerScene.pickerFrame.midY

    init(_ name: String = PickerScene.name, fps: Double = 60) {
        driver = SceneDriver(SceneCatalog.standard.make(name)!, fps: fps)
    }

    var scene: Scene { driver.scene }
    var events: [SceneEvent] { driver.events }
    var picker: TickPicker { scene.widget("picker") as! TickPicker }

    mutating func apply(_ input: SceneInput, at time: Double) { driver.apply(input, at: time) }
    mutating func settle() { driver.settle() }

    mutating func pointer(_ phase: PointerPhase, x: Double, at time: Double) {
        let p = PointerInput(
            phase: phase, key: PointerKey(client: "a", pointer: 1), position: Point(x: x, y: y), clientTime: time)
        apply(.pointer(p), at: time)
    }

    /// The pointer moves by `dx` at a steady speed over `duration`, 10 ms a sample, then lifts
    /// at once (a fling) or after `hold` seconds still (no momentum).
    mutating func drag(by dx: Double, over duration: Double, from x0: Double = 300, start: Double = 0, hold: Double = 0)
    {
        pointer(.down, x: x0, at: start)
        let steps = Int((duration / 0.01).rounded())
        for i in 1...steps { pointer(.move, x: x0 + dx * Double(i) / Double(steps), at: start + 0.01 * Double(i)) }
        pointer(.up, x: x0 + dx, at: start + duration + hold)
    }

    mutating func key(_ key: String, at time: Double) { apply(.key(key, widget: "picker"), at: time) }

    var moved: [SceneEvent] { events.filter { if case .moved = $0.kind { true } else { false } } }
    var movedValues: [Int] { events.compactMap { if case .moved(let v) = $0.kind { v } else { nil } } }
    var haptics: [SceneEvent] { events.filter { if case .haptic = $0.kind { true } else { false } } }
    var finals: [Double] { events.compactMap { if case let .value(v, _, true) = $0.kind { v } else { nil } } }
}

@Suite struct TickPickerTests {
    // UIKit's normal deceleration: a fling at v pt/s travels v/K pt, K = −1000·ln 0.998.
    let k = -1000 * log(0.998)

    /// The picker's one graded run and the offset its layer is shown at.
    static func ticks(_ picker: TickPicker) throws -> (run: GradedRun, offset: Double) {
        var list = DisplayList()
        picker.render(into: &list, theme: .light)
        let runs = try DisplayListDecoder.decode(list.bytes).compactMap {
            if case .gradedRun(let r) = $0 { r } else { nil }
        }
        try #require(runs.count == 1)
        return (runs[0], picker.layerOffset.x)
    }

    @Test(
        "tick look by distance from the centre (seed 003): <5 → 18×2 centre, <16 → 14, <26 → 8, else 4",
        arguments: [
            (0.0, 18.0, 2.0, true), (4.99, 18, 2, true), (-4.99, 18, 2, true), (5, 14, 1, false),
            (15.99, 14, 1, false), (-10, 14, 1, false), (16, 8, 1, false), (25.99, 8, 1, false),
            (-20, 8, 1, false), (26, 4, 1, false), (-30, 4, 1, false), (190, 4, 1, false),
        ])
    func tickLook(distance: Double, height: Double, width: Double, centre: Bool) throws {
        let run = GradedRun(x0: 0, y: 0, dx: 10, count: 1, focus: 0, grades: TickPicker.grades(.light))
        let grade = try #require(run.grade(at: distance))
        #expect(grade.height == height && grade.width == width)
        // The centre tick in the text colour; the others the secondary text at 60 % (#AAA-ish on white).
        var grey = Theme.light.secondaryText
        grey.a = 153
        #expect(grade.fill == (centre ? Theme.light.text : grey))
    }

    @Test("at rest on 0: ticks 10 pt apart, centred vertically, graded; padding reaches the left edge")
    func drawnTicks() throws {
        let run = PickerRun()
        let (ticks, offset) = try Self.ticks(run.picker)
        let frame = PickerScene.pickerFrame
        var shown: [Double: Rect] = [:]
        for (r, _) in ticks.marks(offset: offset) { shown[((r.midX + offset) * 100).rounded() / 100] = r }
        // The seed pads ceil(195 / 10.5) = 19 ticks before 0: x = 195 − 190 = 5 is the first.
        #expect(run.picker.paddingTicks == 19)
        #expect(shown.keys.min() == 5)
        // 0…100 and 19 either side: every tick is in the one op, whatever the offset.
        #expect(ticks.count == 139 && ticks.dx == 10)
        for (dx, height) in [(0.0, 18.0), (10, 14), (-10, 14), (20, 8), (-20, 8), (30, 4), (-190, 4), (190, 4)] {
            let r = try #require(shown[195 + dx], "tick at \(dx)")
            #expect(r.height == height, "tick at \(dx)")
            #expect(abs(r.midY - frame.midY) < 1e-4)
        }
        #expect(shown[195]?.width == 2)
    }

    @Test("dragged 47 pt: the same ops, the layer's offset −47; the tick of 5 is the centre one, 3 pt off")
    func draggedTicks() throws {
        var run = PickerRun()
        let before = try Self.ticks(run.picker)
        run.pointer(.down, x: 300, at: 0)
        run.pointer(.move, x: 253, at: 1)
        let after = try Self.ticks(run.picker)
        #expect(after.run == before.run && after.offset == -47)
        let centre = after.run.marks(offset: after.offset).filter { $0.rect.width == 2 }
        // Tick 5 at content x 195 + 50 is shown at 198: 3 pt right of the centre.
        #expect(centre.count == 1 && centre.first.map { $0.rect.midX + after.offset } == 198)
    }

    @Test("the range is exactly 0…N: dragging far past either end stops there and emits nothing beyond")
    func hardEdges() {
        var run = PickerRun()
        // 1200 pt left (120 ticks' worth), slowly: the content stops at N = 100.
        run.drag(by: -1200, over: 2.4, hold: 0.1)
        #expect(run.picker.value == 100)
        #expect(run.picker.contentOffset == 1000)
        #expect(run.movedValues == Array(1...100))
        // Past 0 from 100: back down to exactly 0, never −1.
        run.drag(by: 1500, over: 3, start: 5, hold: 0.1)
        run.settle()
        #expect(run.picker.value == 0 && run.picker.contentOffset == 0)
        #expect(run.movedValues == Array(1...100) + Array((0...99).reversed()))
        #expect(run.finals == [100, 0])
        #expect(run.movedValues.allSatisfy { (0...100).contains($0) })
    }

    @Test("one arrival swinging across the whole range again and again clicks at most one range's worth (N + 1)")
    func clicksPerArrivalAreBounded() {
        var run = PickerRun()
        run.pointer(.down, x: 380, at: 1)
        // 128 samples of one message, all applied at t = 1.1: 0 → 100 → 0 → 100 …
        for i in 0..<128 { run.pointer(.move, x: i % 2 == 0 ? -700 : 380, at: 1.1) }
        #expect(run.movedValues.count == 101)
        #expect(run.movedValues == Array(1...100) + [99])
        run.pointer(.move, x: -700, at: 1.2)  // a later arrival clicks again
        #expect(run.movedValues.count == 101 + 100)  // back at 0 after the burst: 1…100 again
    }

    @Test("moving back off an edge moves at once: no stored overshoot (bounces = false)")
    func noOvershootStored() {
        var run = PickerRun()
        run.pointer(.down, x: 300, at: 0)
        run.pointer(.move, x: 400, at: 0.1)  // pushes past 0: nothing moves
        #expect(run.picker.contentOffset == 0)
        run.pointer(.move, x: 370, at: 0.2)  // 30 pt back: 3 ticks at once
        #expect(run.picker.contentOffset == 30)
        #expect(run.movedValues == [1, 2, 3])
    }

    @Test("a fling across 48 ticks: 48 moved and 48 haptic events, in order, none repeated, none at rest")
    func flingEvents() throws {
        var run = PickerRun()
        // 80 pt left at 800 pt/s, lifted at once: x∞ = 80 + 800/K = 479.6 → lands on 480 (48).
        run.drag(by: -80, over: 0.1)
        run.settle()
        #expect(run.picker.value == 48 && run.picker.contentOffset == 480)
        #expect(run.movedValues == Array(1...48))
        #expect(run.haptics.count == 48)
        #expect(run.haptics.allSatisfy { $0.kind == .haptic("selection") })
        // Each haptic follows its moved event at the same time.
        for (m, h) in zip(run.moved, run.haptics) { #expect(m.time == h.time) }
        let times = run.moved.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(run.finals == [48])
        let rest = try #require(run.events.last).time
        let before = run.events.count
        run.apply(.leave(client: "nobody"), at: rest + 5)
        run.settle()
        #expect(run.events.count == before)
    }

    @Test("each click is stamped with the exact crossing time: the tick boundary 10k + 5 on the glide")
    func crossingTimes() throws {
        var run = PickerRun()
        run.drag(by: -80, over: 0.1)
        run.settle()
        // Retargeted glide from x0 = 80 at 0.1 s onto 480: x(t) = 80 + 400·(1 − 0.998^(1000 t)).
        for tick in 9...48 {
            let boundary = Double(tick) * 10 - 5
            let fraction: Double = 1 - (boundary - 80) / 400
            let t = 0.1 + log(fraction) / (1000 * log(0.998))
            let event = try #require(run.moved.first { $0.kind == .moved(tick) })
            #expect(abs(event.time - t) < 1e-9, "tick \(tick)")
        }
    }

    @Test("the same events, in the same order, at the same times, at 30, 60 and 240 fps")
    func frameRateIndependent() {
        func events(_ fps: Double, _ scene: String) -> [SceneEvent] {
            var run = PickerRun(scene, fps: fps)
            run.drag(by: -80, over: 0.1)
            run.drag(by: -600, over: 0.25, start: 4)  // into the N edge
            run.key("Home", at: 9)
            run.drag(by: -45, over: 0.5, start: 10, hold: 0.2)
            run.settle()
            return run.events
        }
        for scene in [PickerScene.name, PickerScene.freeName] {
            let reference = events(60, scene)
            #expect(reference.count > 200)
            for fps in [30.0, 240.0] {
                let other = events(fps, scene)
                #expect(other.count == reference.count, "\(scene) at \(fps) fps")
                // The first difference, if any, with its neighbours.
                if let i = other.indices.first(where: { i in
                    i >= reference.count || other[i].kind != reference[i].kind
                        || abs(other[i].time - reference[i].time) >= 1e-9
                }) {
                    let window = max(0, i - 2)..<min(i + 3, other.count, reference.count)
                    Issue.record("\(scene) at \(fps) fps, event \(i): \(other[window]) vs \(reference[window])")
                }
            }
        }
    }

    @Test("snap (default) rests on a tick; picker-free stops where momentum ends, as the seed")
    func snapAndFreeStop() {
        var snapped = PickerRun(), free = PickerRun(PickerScene.freeName)
        snapped.drag(by: -80, over: 0.1)
        snapped.settle()
        free.drag(by: -80, over: 0.1)
        free.settle()
        let asymptote = 80 + 800 / k  // 479.60
        #expect(snapped.picker.contentOffset == 480)
        #expect(abs(free.picker.contentOffset - asymptote) < 1e-6)
        #expect(free.picker.value == 48 && free.finals == [48])
        // A slow drag to 33.4 ticks: snap eases onto 33, free stays between ticks.
        var slowSnap = PickerRun(), slowFree = PickerRun(PickerScene.freeName)
        slowSnap.drag(by: -334, over: 1, hold: 0.1)
        slowSnap.settle()
        slowFree.drag(by: -334, over: 1, hold: 0.1)
        slowFree.settle()
        #expect(slowSnap.picker.contentOffset == 330 && slowSnap.finals == [33])
        #expect(slowFree.picker.contentOffset == 334 && slowFree.finals == [33])
    }

    @Test("a free fling into the N edge stops dead on it at the exact crossing time, no overshoot")
    func freeFlingStopsAtTheEdge() throws {
        var run = PickerRun(PickerScene.freeName)
        // 300 pt left in 0.1 s: 3000 pt/s, x∞ = 300 + 3000/K ≈ 1798 > 1000.
        run.drag(by: -300, over: 0.1)
        run.settle()
        #expect(run.picker.contentOffset == 1000 && run.picker.value == 100)
        #expect(run.movedValues == Array(1...100))
        // x(t) = 300 + (3000/K)(1 − 0.998^(1000 t)) reaches 1000 at t below.
        let hit = 0.1 + log(1 - 700 * k / 3000) / (1000 * log(0.998))
        let final = try #require(run.events.last { if case .value(_, _, true) = $0.kind { true } else { false } })
        #expect(abs(final.time - hit) < 1e-9)
    }

    @Test("keys: arrows ±1, PageUp/PageDown ±10, Home/End 0/N; each step clicks once per tick crossed")
    func keyboard() {
        var run = PickerRun()
        #expect(
            Set(run.picker.keys) == [
                "ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp", "PageDown", "PageUp", "Home", "End",
            ])
        let steps: [(String, Int)] = [
            ("ArrowRight", 1), ("ArrowUp", 2), ("PageUp", 12), ("ArrowLeft", 11), ("ArrowDown", 10), ("PageDown", 0),
            ("End", 100), ("PageUp", 100), ("ArrowRight", 100), ("Home", 0), ("ArrowLeft", 0), ("PageDown", 0),
        ]
        var expectedMoves: [Int] = []
        var value = 0
        for (i, (key, after)) in steps.enumerated() {
            run.key(key, at: Double(i))
            run.settle()
            #expect(run.picker.value == after, "\(key)")
            expectedMoves +=
                after > value ? Array(value + 1...after) : after < value ? Array((after..<value).reversed()) : []
            value = after
        }
        #expect(run.movedValues == expectedMoves)
        #expect(run.finals == steps.map { Double($0.1) })
        var none: [SceneEvent] = []
        #expect(!run.picker.key("Enter", at: 20, events: &none) && none.isEmpty)
    }

    @Test("setValue eases to the (rounded) value; out of range is refused with the range")
    func setValue() throws {
        var run = PickerRun()
        run.apply(.action(ActionInput(widget: "picker", name: "setValue", args: ["value": 42.4])), at: 1)
        run.settle()
        #expect(run.picker.value == 42 && run.finals == [42])
        #expect(run.movedValues == Array(1...42))
        #expect(throws: ActionError(#"setValue on "picker": args.value must be a finite number within 0…100"#)) {
            try run.scene.check(ActionInput(widget: "picker", name: "setValue", args: ["value": 101]))
        }
    }

    @Test("semantics: a slider 0…N with its value; the count beside it shows the same number")
    func semantics() {
        var run = PickerRun()
        run.key("PageUp", at: 0)
        run.settle()
        let picker = run.scene.semantics.first { $0.id == "picker" }
        #expect(picker?.role == "slider" && picker?.valueMin == 0 && picker?.valueMax == 100)
        #expect(picker?.valueNow == 10 && picker?.valueText == "10")
        #expect(run.scene.semantics.first { $0.id == "count" }?.valueText == "10")
    }

    @Test("each click pulses the centre tick for 0.15 s (drawn, so replays show it), then it stops")
    func pulse() throws {
        var run = PickerRun()
        run.key("ArrowRight", at: 0)
        // The ease crosses 5 pt (boundary 0|1) at its midpoint, 0.1 s.
        run.apply(.leave(client: "nobody"), at: 0.12)
        func pulses() throws -> [Pulse] {
            var list = DisplayList()
            run.picker.render(into: &list, theme: .light)
            return try DisplayListDecoder.decode(list.bytes).compactMap {
                if case .pulse(let p) = $0 { p } else { nil }
            }
        }
        let ring = try #require(try pulses().first)
        #expect(ring.starts.count == 1 && abs(ring.starts[0] - 0.1) < 1e-6)
        // 0.02 s into 0.15: radius 12 + 6 · 0.02/0.15, alpha 0.35 · (1 − 0.02/0.15).
        let disc = try #require(ring.disc(at: 0.12))
        #expect(abs(disc.radius - 12.8) < 1e-5 && abs(disc.alpha - 0.35 * 13 / 15) < 1e-6)
        #expect(ring.disc(at: 0.2501) == nil && ring.fill == Theme.light.accent)
        run.apply(.leave(client: "nobody"), at: 0.26)
        #expect(try pulses().isEmpty)
        run.settle()
        #expect(!run.scene.isAnimating)
    }
}
