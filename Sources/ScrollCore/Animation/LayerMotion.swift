/// Where a layer's offset goes from now until it rests, if no input comes: what the scene fits
/// a `Track` to.
public struct MotionPlan {
    /// Scene times at which one motion hands over to the next (its velocity, or itself, may jump).
    public var breaks: [Double]
    /// Scene time at which it comes to rest.
    public var end: Double
    /// The layer's offset at any scene time on the way; with `wrap`, as it runs on past a turn.
    public var offset: (Double) -> Point
    /// How the page wraps it (a roller's column); nil: shown as it is.
    public var wrap: Track.Wrap?
    /// The same path exactly, as eased moves (the first keyframe at or before now), when it is
    /// made of them: sent as they are (an eased track) instead of fitted.
    public var keyframes: [Track.Keyframe]?

    public init(
        breaks: [Double], end: Double, wrap: Track.Wrap? = nil, keyframes: [Track.Keyframe]? = nil,
        offset: @escaping (Double) -> Point
    ) {
        self.breaks = breaks
        self.end = end
        self.wrap = wrap
        self.keyframes = keyframes
        self.offset = offset
    }
}

extension MotionPlan {
    /// A layer that shows an axis's path horizontally: its offset is `origin` minus the axis's.
    public init(layerOf path: AxisPath, origin: Double = 0) {
        let keyframes = path.keyframes?.map {
            Track.Keyframe(time: $0.time, offset: Point(x: origin - $0.offset.x, y: 0), curve: $0.curve)
        }
        self.init(breaks: path.breaks, end: path.end, keyframes: keyframes) {
            Point(x: origin - path.offset(at: $0), y: 0)
        }
    }
}

/// A widget's layer offset from now until it rests, if no input comes (`Widget.layerMotion`,
/// `WidgetPart.motion`).
public struct LayerMotion {
    /// Tells one undisturbed motion from the next: while it stays the same, so does the track
    /// (fitted once, when the motion is first drawn).
    public var key: DrawingKey
    public var axes: Track.Axes
    /// Where it goes; nil: it cannot say (no track). Asked only when the key is new: working it
    /// out may run the motion to its end.
    public var plan: () -> MotionPlan?

    public init(key: DrawingKey, axes: Track.Axes, plan: @escaping () -> MotionPlan?) {
        self.key = key
        self.axes = axes
        self.plan = plan
    }
}
