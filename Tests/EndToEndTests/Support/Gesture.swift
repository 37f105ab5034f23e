/// Pointer input as a test scripts it: one pointer (the mouse, or a finger), where it goes and
/// when, in seconds from the gesture's start. A mouse moving before it is pressed hovers.
///
/// Each harness plays it as its protocol can. Chromium sends every step at once, stamped with its
/// time (CDP input events take a timestamp), so the page sees exactly these times whatever the
/// machine's load. Firefox plays it in real time (WebDriver actions have durations, not
/// timestamps): the page sees the browser's own clock, a few milliseconds off under load, and a
/// mouse pressed somewhere else than where it was is first moved there (WebDriver presses where
/// the pointer is), which the page sees as a move with no button down.
struct Gesture {
    enum Pointer: String, CaseIterable, Sendable, CustomStringConvertible {
        case mouse, touch
        var description: String { rawValue }
    }

    enum Phase: Equatable { case down, move, up }

    struct Step: Equatable {
        var phase: Phase
        var x: Double
        var y: Double
        /// Seconds from the gesture's start.
        var time: Double
    }

    var pointer: Pointer
    private(set) var steps: [Step] = []

    init(_ pointer: Pointer = .mouse) { self.pointer = pointer }

    /// The time of the last step (0 for none).
    var duration: Double { steps.last?.time ?? 0 }

    /// The gesture with one more step; times never go back. A finger lifts where it last was.
    func then(_ phase: Phase, x: Double, y: Double, at time: Double) -> Gesture {
        var next = self
        next.steps.append(Step(phase: phase, x: x, y: y, time: max(time, duration)))
        return next
    }

    /// The gesture followed by `other`, which starts `gap` seconds after this one's last step.
    func followed(by other: Gesture, after gap: Double) -> Gesture {
        var next = self
        let start = duration + gap
        next.steps += other.steps.map { Step(phase: $0.phase, x: $0.x, y: $0.y, time: start + $0.time) }
        return next
    }

    /// Down at (`x`, `y`), then `steps` moves `interval` s apart covering (`dx`, `dy`), then up
    /// `hold` s after the last move where it ended (no up when `hold` is nil: still pressed).
    static func stroke(
        _ pointer: Pointer = .mouse, from x: Double, _ y: Double, by dx: Double, _ dy: Double, steps: Int,
        interval: Double, hold: Double?
    ) -> Gesture {
        var gesture = Gesture(pointer).then(.down, x: x, y: y, at: 0)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            gesture = gesture.then(.move, x: x + dx * f, y: y + dy * f, at: interval * Double(i))
        }
        guard let hold else { return gesture }
        return gesture.then(.up, x: x + dx, y: y + dy, at: interval * Double(steps) + hold)
    }

    /// A press and release at (`x`, `y`) `hold` s apart, without moving.
    static func tap(_ pointer: Pointer = .mouse, x: Double, y: Double, hold: Double = 0.05) -> Gesture {
        Gesture(pointer).then(.down, x: x, y: y, at: 0).then(.up, x: x, y: y, at: hold)
    }

    /// The mouse moved to (`x`, `y`) with no button down.
    static func hover(x: Double, y: Double) -> Gesture {
        Gesture(.mouse).then(.move, x: x, y: y, at: 0)
    }

    /// The pointer, pressed by an earlier gesture, released at (`x`, `y`) `after` s from now.
    static func release(_ pointer: Pointer = .mouse, x: Double, y: Double, after: Double) -> Gesture {
        Gesture(pointer).then(.up, x: x, y: y, at: after)
    }
}
