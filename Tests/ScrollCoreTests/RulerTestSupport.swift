@testable import ScrollCore

/// Drives one widget the way the scene would, with virtual time.
struct RulerDriver {
    let ruler: WeightRuler
    var time = 0.0
    var events: [SceneEvent] = []
    let key = PointerKey(client: "a", pointer: 1)

    init(value: Double) {
        ruler = WeightRuler(frame: DemoScene.rulerFrame, value: value)
    }

    var y: Double { DemoScene.rulerFrame.midY }

    mutating func send(_ phase: PointerPhase, x: Double) {
        ruler.advance(to: time, events: &events)
        _ = ruler.pointer(
            PointerInput(phase: phase, key: key, position: Point(x: x, y: y), clientTime: time),
            at: time, events: &events)
    }

    /// Advances virtual time in steps of `dt` (a frame clock at 1/dt Hz).
    mutating func run(for duration: Double, dt: Double = 1.0 / 60) {
        let end = time + duration
        while time < end - 1e-12 {
            time = min(end, time + dt)
            ruler.advance(to: time, events: &events)
        }
    }

    /// A slow drag by `dx` (pointer moves +dx) that holds still 100 ms before lifting:
    /// no momentum, so the ruler only revises to the nearest tick.
    mutating func drag(by dx: Double, from x0: Double = 195, steps: Int = 10) {
        send(.down, x: x0)
        for i in 1...steps {
            time += 0.016
            send(.move, x: x0 + dx * Double(i) / Double(steps))
        }
        time += 0.1
        send(.up, x: x0 + dx)
    }

    var finalValues: [Double] {
        events.compactMap { if case let .value(v, _, true) = $0.kind { return v } else { return nil } }
    }
}

/// Text ops of a display list: label → x.
func labels(_ list: DisplayList) throws -> [String: Double] {
    var out: [String: Double] = [:]
    for op in try DisplayListDecoder.decode(list.bytes) {
        if case let .text(s, x, _, _, _, _, _) = op { out[s] = x }
    }
    return out
}
