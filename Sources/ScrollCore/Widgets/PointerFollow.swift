/// How a held widget's layer follows the pointer holding it (`Widget.pointerFollow`): its offset
/// on `axis` moves by `ratio` times the pointer's movement on that axis, within `range` (what
/// its drawing covers). A page that predicts (docs/PROTOCOL.md, "Prediction") shows that much
/// before the server's frame comes; the server's frame then replaces it.
public struct PointerFollow: Sendable, Equatable {
    public enum Axis: String, Sendable { case x, y }
    public var axis: Axis
    public var ratio: Double
    public var range: ClosedRange<Double>

    public init(axis: Axis, ratio: Double, range: ClosedRange<Double>) {
        self.axis = axis
        self.ratio = ratio
        self.range = range
    }
}

/// A `PointerFollow` with the layer it moves, as `applied` carries it.
public struct LayerFollow: Sendable, Equatable {
    public var layer: UInt16
    public var follow: PointerFollow

    public init(layer: UInt16, follow: PointerFollow) {
        self.layer = layer
        self.follow = follow
    }

    /// `{"layer", "axis", "ratio", "min", "max"}`.
    public var json: JSONValue {
        .object([
            ("layer", .number(Double(layer))), ("axis", .string(follow.axis.rawValue)),
            ("ratio", .number(follow.ratio)),
            ("min", .number(follow.range.lowerBound)), ("max", .number(follow.range.upperBound)),
        ])
    }
}
