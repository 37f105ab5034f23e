@testable import ScrollCore

/// Client clocks are unrelated to scene time; only their differences matter.
let physicsClientEpoch = 7_000.25

extension ScrollAxis {
    /// A drag at a constant pointer speed (pt/s) sampled every 8 ms for 80 ms,
    /// starting at scene time `time`, lifted at the last sample. With a
    /// negative pointer speed the offset moves forwards. Returns the lift time.
    @discardableResult
    mutating func fling(pointerSpeed: Double, at time: Double, pointer: Double = 500) -> Double {
        touchDown(at: pointer, clientTime: physicsClientEpoch + time, time: time)
        var t = time
        for step in 1...10 {
            t = time + Double(step) * 0.008
            touchMove(to: pointer + pointerSpeed * (t - time), clientTime: physicsClientEpoch + t, time: t)
        }
        touchUp(clientTime: physicsClientEpoch + t, time: t)
        return t
    }

    /// Ticks at `hz` from `time` until the axis stops (at most 20 s); returns
    /// the time of every tick and the offset it showed.
    mutating func tick(hz: Double, from time: Double) -> [(time: Double, offset: Double)] {
        var frames: [(time: Double, offset: Double)] = []
        var frame = 1.0
        while isMoving && frame < 20 * hz {
            let t = time + frame / hz
            advance(to: t)
            frames.append((t, offset(at: t)))
            frame += 1
        }
        return frames
    }
}
