/// One pointer's gesture, from down to up: what it is, decided as early as the rules allow
/// (Flutter's tap and drag recognizers, folded into one state machine for one pointer).
///
/// Rules, with `start` the down point and (dx, dy) a sample minus it (screen y grows downward):
/// - While every sample stays within `slop` (distance ≤ slop) the gesture is `.undecided`.
/// - The first sample beyond it locks the axis: |dx| ≥ |dy| → `.horizontalDrag`, which starts at
///   that sample (`.dragStarted`); otherwise dy < 0 → a swipe-up candidate (still `.undecided`);
///   dy > 0 → `.none`.
/// - A candidate becomes `.swipeUp` at the first sample (the locking one included) with upward
///   travel −dy > `swipeDistance` and |dy| > |dx|; lifted or cancelled before that it is `.none`.
/// - `up` while undecided and never out of the slop: `.tap` if the up point is within the slop and
///   at most `tapTimeout` after the down, else `.none`. Leaving the slop rules out a tap for good.
/// - Once decided, nothing changes `kind` and every call returns nil.
///
/// Ties go as written (exactly `slop` away is within, exactly `tapTimeout` is a tap, 45° is
/// horizontal, exactly `swipeDistance` is not a swipe) whatever the doubles round to: every
/// comparison allows `tolerance`.
///
/// Times are the client's clock (s). Hostile input decides nothing odd: a non-finite displacement
/// on an axis counts as no movement on it, and a time before the down (or not a number) as 0 s
/// elapsed.
public struct PointerGesture: Sendable {
    public enum Kind: Sendable, Equatable { case undecided, tap, horizontalDrag, swipeUp, none }

    /// Client times (s) and positions (pt) are far from 0 (an epoch, a page offset), so a
    /// difference that is a tie on paper can be off by an ulp (0.8 − 0.5 > 0.3 in doubles).
    public static let tolerance = 1e-9

    public enum Recognition: Sendable, Equatable {
        /// Moved past the slop, more horizontal than vertical: a drag begins HERE (at this sample,
        /// not at the down point: the slop is not applied to the content, as Flutter's
        /// `DragStartBehavior.start`).
        case dragStarted(at: Point, time: Double)
        /// Upward travel > swipeDistance and more vertical than horizontal (decided once, during the move).
        case swipeUp
        /// Up within slop and tapTimeout; `at` is the up point.
        case tap(at: Point)
    }

    /// While `.undecided`: has the pointer left the slop upward (a swipe-up candidate)?
    private enum Tracking: Sendable { case inSlop, upward }

    public private(set) var kind: Kind = .undecided
    public let start: Point
    /// The down's client time (s).
    public let startTime: Double
    public let settings: GestureSettings
    private var tracking = Tracking.inSlop
    /// The latest finite client time seen, reported in place of a non-finite one.
    private var lastTime: Double

    public init(at point: Point, time: Double, settings: GestureSettings = .standard) {
        start = point
        startTime = time
        self.settings = settings
        lastTime = time.isFinite ? time : 0
    }

    /// True once the pointer has left the slop upward and may still become a swipe up.
    public var isSwipeCandidate: Bool { kind == .undecided && tracking == .upward }

    /// Returns a recognition the first time one is decided; nil otherwise.
    public mutating func move(to point: Point, time: Double) -> Recognition? {
        guard kind == .undecided else { return nil }
        let time = finiteTime(time)
        let (dx, dy) = displacement(to: point)
        if tracking == .inSlop {
            guard !isWithinSlop(dx, dy) else { return nil }
            if abs(dx) >= abs(dy) - Self.tolerance {
                kind = .horizontalDrag
                return .dragStarted(at: sample(point, dx, dy), time: time)
            }
            guard dy < 0 else {
                kind = .none
                return nil
            }
            tracking = .upward
        }
        guard -dy > settings.swipeDistance + Self.tolerance, abs(dy) > abs(dx) + Self.tolerance else { return nil }
        kind = .swipeUp
        return .swipeUp
    }

    /// The pointer lifted here. Returns .tap when it was one (kind becomes .tap); a drag stays
    /// .horizontalDrag, a swipe .swipeUp; anything still undecided becomes .none.
    public mutating func up(at point: Point, time: Double) -> Recognition? {
        guard kind == .undecided else { return nil }
        let (dx, dy) = displacement(to: point)
        guard tracking == .inSlop, isWithinSlop(dx, dy), elapsed(to: time) <= settings.tapTimeout + Self.tolerance
        else {
            kind = .none
            return nil
        }
        kind = .tap
        return .tap(at: sample(point, dx, dy))
    }

    /// Cancelled: kind becomes .none unless already decided.
    public mutating func cancel() {
        if kind == .undecided { kind = .none }
    }

    /// The sample minus the down point; an axis that is not finite did not move.
    private func displacement(to point: Point) -> (dx: Double, dy: Double) {
        let dx = point.x - start.x, dy = point.y - start.y
        return (dx.isFinite ? dx : 0, dy.isFinite ? dy : 0)
    }

    private func isWithinSlop(_ dx: Double, _ dy: Double) -> Bool {
        let slop = settings.slop + Self.tolerance
        return dx * dx + dy * dy <= slop * slop
    }

    /// The point as it was used: a non-finite coordinate is the down point's.
    private func sample(_ point: Point, _ dx: Double, _ dy: Double) -> Point {
        Point(x: dx == 0 ? start.x : point.x, y: dy == 0 ? start.y : point.y)
    }

    private func elapsed(to time: Double) -> Double {
        let elapsed = time - startTime
        return elapsed > 0 ? elapsed : 0  // backwards, or NaN: no time has passed
    }

    private mutating func finiteTime(_ time: Double) -> Double {
        if time.isFinite { lastTime = time }
        return lastTime
    }
}
