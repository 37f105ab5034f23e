/// `DisplayList.pulse`'s operands: a disc at `center` that starts again at each of `starts`
/// (room time, s) and for `duration` seconds grows linearly from `radius.from` to `radius.to`
/// while its fill's alpha is multiplied by a factor going linearly from `alpha.from` to
/// `alpha.to`. Only the latest start that has begun is drawn, and nothing once it is `duration`
/// old. The picker's click ring: a glide's clicks are known when it starts, so one op shows every
/// ring of the glide at the page's display time (docs/PROTOCOL.md, "Display list").
public struct Pulse: Sendable, Equatable {
    public var center: Point
    public var radius: (from: Double, to: Double)
    public var alpha: (from: Double, to: Double)
    public var duration: Double
    public var fill: Color
    /// In time order.
    public var starts: [Double]

    public init(
        center: Point, radius: (from: Double, to: Double), alpha: (from: Double, to: Double), duration: Double,
        fill: Color, starts: [Double]
    ) {
        self.center = center; self.radius = radius; self.alpha = alpha; self.duration = duration
        self.fill = fill; self.starts = starts
    }

    public static func == (a: Pulse, b: Pulse) -> Bool {
        a.center == b.center && a.radius == b.radius && a.alpha == b.alpha && a.duration == b.duration
            && a.fill == b.fill && a.starts == b.starts
    }

    /// The disc shown at `time`: its radius and the alpha factor for its fill; nil when none is.
    public func disc(at time: Double) -> (radius: Double, alpha: Double)? {
        guard duration > 0, let start = starts.last(where: { $0 <= time }) else { return nil }
        let age = (time - start) / duration
        guard age < 1 else { return nil }
        return (radius.from + (radius.to - radius.from) * age, alpha.from + (alpha.to - alpha.from) * age)
    }

    /// When the last disc ends (−∞ without any).
    public var end: Double { (starts.last ?? -.infinity) + duration }
}
