import ScrollCore

/// A driving connection's built-in gesture on a row of the demo (its carousel, picker or ruler:
/// `y`). A fling: every `period` seconds a drag of 10 moves 8 ms apart, 16 pt each (2,000 pt/s,
/// as `widget-bench`'s fling), then a lift; directions alternate, and a new down stops the
/// previous glide, so the widget never rests. Each glide is one track and a few frames
/// (docs/PROTOCOL.md, "Tracks"). A sweep (`sweep()`): one finger that never lifts, dragging
/// 4 pt every 1/60 s, turning every second: every client is sent a frame a move for the whole run.
struct FlingScript {
    struct Step: Equatable {
        let phase: PointerPhase
        let x: Double
    }

    /// The carousel's, the picker's and the ruler's rows in the demo scene.
    static let carouselY = DemoScene.carouselFrame.midY
    static let pickerY = DemoScene.pickerFrame.midY
    static let rulerY = DemoScene.rulerFrame.midY
    /// Where each leftward stroke starts (a rightward one ends there).
    static let right = 330.0

    let period: Double
    /// The row driven.
    let y: Double
    let moves: Int
    let moveInterval: Double
    let moveDistance: Double
    /// False: the finger stays down (one down, at the start).
    let lifts: Bool
    private var cycle = 0
    private var stepInCycle = 0

    init(
        period: Double = 1.5, y: Double = Self.carouselY, moves: Int = 10, moveInterval: Double = 0.008,
        moveDistance: Double = 16, lifts: Bool = true
    ) {
        self.period = period
        self.y = y
        self.moves = moves
        self.moveInterval = moveInterval
        self.moveDistance = moveDistance
        self.lifts = lifts
    }

    /// The carousel dragged back and forth at 60 moves a second, never lifted.
    static func sweep() -> FlingScript {
        FlingScript(period: 1, y: carouselY, moves: 60, moveInterval: 1.0 / 60, moveDistance: 4, lifts: false)
    }

    /// The steps due at `elapsed` seconds since the script began, in order.
    mutating func due(at elapsed: Double) -> [Step] {
        var steps: [Step] = []
        while let (offset, step) = upcoming(), Double(cycle) * period + offset <= elapsed {
            if let step { steps.append(step) }
            stepInCycle += 1
            if stepInCycle > moves + 1 {
                cycle += 1
                stepInCycle = 0
            }
        }
        return steps
    }

    /// Offset within the cycle and the step (nil: none, for a finger that stays down): down, the
    /// moves, then up where the last move was.
    private func upcoming() -> (Double, Step?)? {
        let leftward = cycle % 2 == 0
        let start = leftward ? Self.right : Self.right - moveDistance * Double(moves)
        let direction = leftward ? -1.0 : 1.0
        let k = min(stepInCycle, moves)
        let x = start + direction * moveDistance * Double(k)
        let offset = Double(k) * moveInterval
        switch stepInCycle {
        case 0: return (0, lifts || cycle == 0 ? Step(phase: .down, x: start) : nil)
        case ...moves: return (offset, Step(phase: .move, x: x))
        default: return (offset, lifts ? Step(phase: .up, x: x) : nil)
        }
    }
}
