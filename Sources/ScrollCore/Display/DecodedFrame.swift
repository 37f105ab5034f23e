/// A decoded frame message (tests, tools). Layers marked keep have `ops == nil` and
/// `offset == nil`; a move has `ops == nil` and its new offset; a layer on a track has its
/// `track` and no `offset`.
public struct DecodedFrame: Sendable {
    public struct Layer: Sendable, Equatable {
        public var id: UInt16
        /// Nil: the ops the layer held (keep or move).
        public var ops: [UInt8]?
        /// Nil: the offset the layer held (keep), or the track's.
        public var offset: Point?
        /// The track its offset follows from now (kinds 3 and 4).
        public var track: Track?
    }

    public var version: UInt8
    public var isDelta: Bool
    public var seq: UInt32
    public var time: Double
    public var layers: [Layer]

    public init(_ bytes: [UInt8]) throws {
        var r = ByteReader(bytes)
        guard try r.u8() == FrameFormat.kind else { throw DisplayListDecodingError(offset: 0, reason: "not a frame") }
        version = try r.u8()
        isDelta = try r.u8() & FrameFormat.flagDelta != 0
        _ = try r.u8()
        seq = try r.u32()
        time = try r.f64()
        let count = Int(try r.u16())
        layers = []
        for _ in 0..<count {
            let id = try r.u16()
            let at = r.offset
            switch try r.u8() {
            case FrameFormat.layerKeep:
                layers.append(Layer(id: id, ops: nil, offset: nil))
            case FrameFormat.layerMove:
                layers.append(Layer(id: id, ops: nil, offset: Point(x: try r.f32(), y: try r.f32())))
            case FrameFormat.layerOps:
                let offset = Point(x: try r.f32(), y: try r.f32())
                let n = Int(try r.u32())
                layers.append(Layer(id: id, ops: Array(try r.take(n)), offset: offset))
            case FrameFormat.layerTrack:
                layers.append(Layer(id: id, ops: nil, offset: nil, track: try Self.track(&r)))
            case FrameFormat.layerOpsTrack:
                let track = try Self.track(&r)
                let n = Int(try r.u32())
                layers.append(Layer(id: id, ops: Array(try r.take(n)), offset: nil, track: track))
            default:
                throw DisplayListDecodingError(offset: at, reason: "unknown layer kind \(bytes[at])")
            }
        }
    }

    private static func track(_ r: inout ByteReader) throws -> Track {
        let at = r.offset
        let start = try r.f64()
        guard start.isFinite else { throw DisplayListDecodingError(offset: at, reason: "a track starting at \(start)") }
        let flags = try r.u8()
        guard flags & ~(3 | FrameFormat.trackWraps | FrameFormat.trackWide | FrameFormat.trackEased) == 0,
            let axes = Track.Axes(rawValue: flags & 3)
        else {
            throw DisplayListDecodingError(offset: at, reason: "unknown track axes")
        }
        let count = Int(try r.u16())
        guard count > 0 else { throw DisplayListDecodingError(offset: at, reason: "a track without knots") }
        var wrap: Track.Wrap?
        if flags & FrameFormat.trackWraps != 0 {
            let upper = try r.f32(), period = try r.f32()
            guard upper.isFinite, period.isFinite, period > 0 else {
                throw DisplayListDecodingError(offset: at, reason: "a track wrapping by \(period) at \(upper)")
            }
            wrap = Track.Wrap(upper: upper, period: period)
        }
        let wide = flags & FrameFormat.trackWide != 0
        func number() throws -> Double { wide ? try r.f64() : try r.f32() }
        var curves: [CubicBezierEasing]?
        if flags & FrameFormat.trackEased != 0 {
            curves = try (0..<Int(try r.u8())).map { _ in try r.curve(of: "a track") }
        }
        let eased = curves != nil
        var knots: [Track.Knot] = []
        for _ in 0..<count {
            let t = try number()
            let (x, vx) = axes != .y ? (try number(), eased ? 0 : try number()) : (0, 0)
            let (y, vy) = axes != .x ? (try number(), eased ? 0 : try number()) : (0, 0)
            let curve = eased ? try r.u8() : 0
            guard [t, x, y, vx, vy].allSatisfy(\.isFinite) else {
                throw DisplayListDecodingError(offset: at, reason: "a track knot that is not finite")
            }
            if let previous = knots.last, t < previous.t {
                throw DisplayListDecodingError(offset: at, reason: "track knot times go back")
            }
            if let curves, Int(curve) > curves.count {
                throw DisplayListDecodingError(
                    offset: at, reason: "a track knot naming curve \(curve) of \(curves.count)")
            }
            knots.append(Track.Knot(t: t, x: x, y: y, vx: vx, vy: vy, curve: curve, wide: wide))
        }
        return Track(start: start, axes: axes, knots: knots, wrap: wrap, wide: wide, curves: curves)
    }
}
