import ScrollCore

/// A driving connection's built-in gesture: every `period` seconds a drag of 10 moves
/// 8 ms apart, 16 pt each (2,000 pt/s, as `widget-bench`'s fling), then a lift that flings
/// a row of the demo: its carousel, picker or ruler (`y`); directions alternate. A new down stops
/// the previous fling, so the widget never rests. The carousel's items scale near the centre, so
/// it is drawn anew every tick and frames flow at the tick rate for the whole run (its glide lasts
/// about a second: `period` 1 s); a picker's or a ruler's glide is one track and a few frames
/// (docs/PROTOCOL.md, "Tracks").
struct FlingScript {
    struct Step: Equatable {
        let phase: PointerPhase
        let x: Double
    }

    /// The carousel's, the picker's and the ruler's rows in the demo scene.
    static let carouselY = DemoScene.carouselFrame.midY
    static let pickerY = DemoScene.pickerFrame.midY
    static let rulerY = DemoScene.rulerFrame.midY
    static let moves = 10
    static let moveInterval = 0.008
    static let moveDistance = 16.0

    let period: Double
    /// The row flung.
    let y: Double
    private var cycle = 0
    private var stepInCycle = 0

    init(period: Double = 1, y: Double = Self.carouselY) {
        self.period = period
        self.y = y
    }

    /// The steps due at `elapsed` seconds since the script began, in order.
    mutating func due(at elapsed: Double) -> [Step] {
        var steps: [Step] = []
        while let (offset, step) = upcoming(), Double(cycle) * period + offset <= elapsed {
            steps.append(step)
            stepInCycle += 1
            if stepInCycle > Self.moves + 1 {
                cycle += 1
                stepInCycle = 0
            }
        }
        return steps
    }

    /// Offset within the cycle and the step: down, the moves, then up where the last move was.
    private func upcoming() -> (Double, Step)? {
        let leftward = cycle % 2 == 0
        let start = leftward ? 330.0 : 60.0
        let direction = leftward ? -1.0 : 1.0
        let k = min(stepInCycle, Self.moves)
        let x = start + direction * Self.moveDistance * Double(k)
        let offset = Double(k) * Self.moveInterval
        switch stepInCycle {
        case 0: return (0, Step(phase: .down, x: start))
        case ...Self.moves: return (offset, Step(phase: .move, x: x))
        default: return (offset, Step(phase: .up, x: x))
        }
    }
}
