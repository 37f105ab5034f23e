/// A layer as a receiver holds it once frames are applied (the page's LayerStore, tests, tools):
/// its ops and its offset, fixed or on a track.
public struct HeldLayer: Sendable, Equatable, CustomStringConvertible {
    public var id: UInt16
    public var ops: [UInt8]
    /// The fixed offset (zero with a track: the track says where it is).
    public var offset: Point
    public var track: Track?

    public init(id: UInt16, ops: [UInt8], offset: Point = .zero, track: Track? = nil) {
        self.id = id; self.ops = ops; self.offset = offset; self.track = track
    }

    /// The offset its `scroll` ops translate by at room time `time`.
    public func offset(at time: Double) -> Point { track?.offset(at: time) ?? offset }

    public var description: String {
        "layer \(id) (\(ops.count) B \(track.map { "on a track of \($0.knots.count) knots" } ?? "at \(offset.x), \(offset.y)"))"
    }
}

extension DecodedFrame.Layer {
    /// This entry applied to the layer held under its id: keep holds it, move gives it a fixed
    /// offset, a track gives it a track, ops replace everything. Nil when the entry needs a
    /// held layer and there is none (a keep, move or track without ops in a first frame).
    public func applied(to held: HeldLayer?) -> HeldLayer? {
        guard let ops = ops ?? held?.ops else { return nil }
        if let track { return HeldLayer(id: id, ops: ops, track: track) }
        if let offset { return HeldLayer(id: id, ops: ops, offset: offset) }
        // Keep: as held, track and all.
        guard let held else { return nil }
        return HeldLayer(id: id, ops: ops, offset: held.offset, track: held.track)
    }
}
