/// Thresholds (pt, s) for `PointerGesture`. Tap: down and up within `slop` of each other and
/// `tapTimeout` apart. Why these values: docs/PHYSICS.md, "Gestures".
public struct GestureSettings: Sendable, Equatable {
    /// Beyond it (Euclidean distance from the down point) the pointer is no longer a tap, and the
    /// axis locks. One distance for both, so no finger is ever neither a tap nor a drag.
    public var slop: Double = 10
    /// Longest press (s, client time between down and up) that is still a tap.
    public var tapTimeout: Double = 0.3
    /// Upward travel (pt) that makes a swipe up.
    public var swipeDistance: Double = 40

    public static let standard = GestureSettings()

    public init(slop: Double = 10, tapTimeout: Double = 0.3, swipeDistance: Double = 40) {
        self.slop = slop; self.tapTimeout = tapTimeout; self.swipeDistance = swipeDistance
    }
}
