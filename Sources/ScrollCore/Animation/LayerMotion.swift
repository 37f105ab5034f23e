/// A widget's layer offset from now until it rests, if no input comes (`Widget.layerMotion`):
/// what the scene fits a `Track` to.
public struct LayerMotion {
    /// Tells one undisturbed motion from the next: while it stays the same, so does the track
    /// (fitted once, when the motion is first drawn).
    public var key: DrawingKey
    /// When it rests and where its velocity may jump; nil: it cannot say (no track). Asked only
    /// when the key is new: working it out runs the motion to its end.
    public var path: () -> AxisPath?
    public var axes: Track.Axes
    /// The layer's offset at a scene time within the path.
    public var offset: (Double) -> Point

    public init(
        key: DrawingKey, path: @escaping () -> AxisPath?, axes: Track.Axes, offset: @escaping (Double) -> Point
    ) {
        self.key = key
        self.path = path
        self.axes = axes
        self.offset = offset
    }
}
