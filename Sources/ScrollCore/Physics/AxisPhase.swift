public enum AxisPhase: Sendable, Equatable {
    case idle, tracking, decelerating, bouncing, snapping
}
