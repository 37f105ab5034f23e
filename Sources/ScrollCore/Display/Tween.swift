/// `DisplayList.tween`'s operands: a save, then a move, a scale and a fade of the ops up to the
/// matching restore that run over room time, each from its `from` to its `to` along `curve` as
/// time goes from `start` to `start + duration` (holding before and after). What comes and goes
/// in a layer that otherwise only slides (the carousel's added and deleted items) is sent once,
/// as the page plays a track (docs/PROTOCOL.md, "Display list"). Every number but `start` is
/// rounded to float32 when made, as it goes on the wire (the duration down), so the server shows
/// what the page does.
public struct Tween: Sendable, Equatable {
    public struct Move: Sendable, Equatable {
        public var from, to: Point
        public init(from: Point, to: Point) { (self.from, self.to) = (from, to) }
    }
    /// About `center`.
    public struct Scale: Sendable, Equatable {
        public var center: Point
        public var from, to: Double
        public init(center: Point, from: Double, to: Double) { (self.center, self.from, self.to) = (center, from, to) }
    }
    /// A factor of the alpha the ops are drawn with.
    public struct Fade: Sendable, Equatable {
        public var from, to: Double
        public init(from: Double, to: Double) { (self.from, self.to) = (from, to) }
    }

    /// Room time (s) it starts at; sent as float64, like a track's start.
    public var start: Double
    public var duration: Double
    public var curve: CubicBezierEasing
    public var move: Move?
    public var scale: Scale?
    public var fade: Fade?

    public init(
        start: Double, duration: Double, curve: CubicBezierEasing = .linear, move: Move? = nil, scale: Scale? = nil,
        fade: Fade? = nil
    ) {
        func f(_ v: Double) -> Double { Double(Float(v)) }
        func f(_ p: Point) -> Point { Point(x: f(p.x), y: f(p.y)) }
        self.start = start
        // Never later than asked: a tween of the model's 0.3 s has ended when the model has.
        let d = Float(duration)
        self.duration = Double(Double(d) > duration ? d.nextDown : d)
        self.curve = curve.float32
        self.move = move.map { Move(from: f($0.from), to: f($0.to)) }
        self.scale = scale.map { Scale(center: f($0.center), from: f($0.from), to: f($0.to)) }
        self.fade = fade.map { Fade(from: f($0.from), to: f($0.to)) }
    }

    public var end: Double { start + duration }

    /// The parts byte on the wire: which of move, scale and fade follow.
    public enum Parts {
        public static let move: UInt8 = 1
        public static let scale: UInt8 = 2
        public static let fade: UInt8 = 4
    }

    /// How far along its curve it is at `time`: 0 before it starts, 1 from its end on (a tween of
    /// no duration is at its end from its start).
    public func progress(at time: Double) -> Double {
        if time < start { return 0 }
        guard duration > 0, time < start + duration else { return 1 }
        return curve.value(at: (time - start) / duration)
    }

    /// What it does at `time`: the move (dx, dy), the scale and the alpha factor (clamped to 0…1).
    public func state(at time: Double) -> (dx: Double, dy: Double, scale: Double, alpha: Double) {
        let e = progress(at: time)
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * e }
        let move = move ?? Move(from: .zero, to: .zero)
        return (
            mix(move.from.x, move.to.x), mix(move.from.y, move.to.y), scale.map { mix($0.from, $0.to) } ?? 1,
            fade.map { min(max(mix($0.from, $0.to), 0), 1) } ?? 1
        )
    }
}
