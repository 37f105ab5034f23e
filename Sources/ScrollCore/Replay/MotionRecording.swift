/// Each widget's `MotionReading` over a replay, read at every step the replayer shows it
/// (`Replayer.onStep`): every frame tick while anything moves, and every input. What
/// `widget-replay --plot` draws.
///
/// Between two steps with the scene at rest nothing moves, so the reading is held until the
/// next step (a held point at that step's time, before its reading): an input that moves a
/// widget at once after a pause (a wheel turn, a drag's first move) is a step, not a slope.
public final class MotionRecording {
    /// One widget's readings, in time order (several may share a time: an input moved it at once).
    public struct Series: Sendable, Equatable {
        public struct Point: Sendable, Equatable {
            public var time: Double
            public var position: Double
            public var velocity: Double
        }

        public let widget: String
        /// What its reading is and in what unit (`MotionReading`).
        public let quantity: String
        public let unit: String
        public internal(set) var points: [Point]

        /// True when its reading changed at some time: a widget that moved.
        public var moved: Bool { points.contains { $0.position != points[0].position } }
    }

    /// One per widget with a reading, in scene order.
    public private(set) var series: [Series] = []
    private var atRest = true

    public init() {}

    /// The widgets that moved.
    public var moving: [Series] { series.filter(\.moved) }

    /// Reads every widget of `scene` at its time (hand this to `Replayer.onStep`).
    public func record(_ scene: Scene) {
        let time = scene.time
        var index = 0
        for widget in scene.widgets {
            guard let reading = widget.motionReading else { continue }
            let point = Series.Point(time: time, position: reading.position, velocity: reading.velocity)
            if index == series.count {
                series.append(Series(widget: widget.id, quantity: reading.quantity, unit: reading.unit, points: []))
            }
            series[index].add(point, held: atRest)
            index += 1
        }
        atRest = !scene.isAnimating
    }
}

extension MotionRecording.Series {
    fileprivate mutating func add(_ point: Point, held: Bool) {
        guard let last = points.last else {
            points.append(point)
            return
        }
        guard point != last else { return }
        if held, point.time > last.time, point.position != last.position || point.velocity != last.velocity {
            points.append(Point(time: point.time, position: last.position, velocity: last.velocity))
        }
        points.append(point)
    }
}
