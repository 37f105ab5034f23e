/// A widget's layer offset from now until it rests, if no input comes (`Widget.layerMotion`):
/// what the scene fits a `Track` to.
public struct LayerMotion {
    /// Tells one undisturbed motion from the next: while it stays the same, so does the track
    /// (fitted once, when the motion is first drawn).
    public var key: DrawingKey
    public var axes: Track.Axes
    /// Where it goes: its path (when it rests, where its velocity may jump) and the layer's offset
    /// at any scene time on it; nil: it cannot say (no track). Asked only when the key is new:
    /// working it out runs the motion to its end.
    public var plan: () -> (path: AxisPath, offset: (Double) -> Point)?

    public init(key: DrawingKey, axes: Track.Axes, plan: @escaping () -> (path: AxisPath, offset: (Double) -> Point)?) {
        self.key = key
        self.axes = axes
        self.plan = plan
    }
}
