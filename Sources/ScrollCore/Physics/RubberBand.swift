/// UIScrollView's rubber band: dragging `x` past an edge shows
/// b(x) = (1 − 1/(x·c/D + 1))·D, with D the viewport dimension. The slope is c
/// at the edge and the overshoot never reaches D, however far the finger goes.
public enum RubberBand {
    public static let coefficient = 0.55

    /// Displayed overshoot for a finger overshoot `x` ≥ 0.
    public static func offset(forOvershoot x: Double, dimension d: Double) -> Double {
        (1 - 1 / (x * coefficient / d + 1)) * d
    }

    /// Inverse, x = b·D/(c·(D − b)), for 0 ≤ b < D: catching a bouncing axis
    /// resumes the drag from the overshoot on screen.
    public static func overshoot(forOffset b: Double, dimension d: Double) -> Double {
        b * d / (coefficient * (d - b))
    }
}
