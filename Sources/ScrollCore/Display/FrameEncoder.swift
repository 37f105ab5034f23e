/// One layer of a frame: a widget's display list under a stable id (z-order = frame order),
/// and the offset its `scroll` ops translate by: `offset` now, and `track` when the offset is
/// moving on its own (the frame then carries the track instead of the offset).
public struct Layer: Sendable, Equatable {
    public var id: UInt16
    public var list: DisplayList
    public var offset: Point
    public var track: Track?
    public init(id: UInt16, list: DisplayList, offset: Point = .zero, track: Track? = nil) {
        self.id = id; self.list = list; self.offset = offset; self.track = track
    }
}

/// A rendered frame, two ways: `full` stands alone; `delta` sends only the layers that
/// changed since frame `seq − 1` (the rest as "keep"). The server picks per client — delta
/// only for a client whose last frame was exactly `seq − 1`, so "latest wins" skipping never
/// leaves a client with a stale layer.
public struct EncodedFrame: Sendable {
    public var seq: UInt32
    public var time: Double
    public var delta: [UInt8]
    /// Layers whose ops or offset differ from frame `seq − 1` (0: the frame looks the same).
    public var changedLayers: Int
    /// What `full` is made of (shared buffers, not copies).
    public var layers: [Layer]

    /// Built when asked: most frames only ever go out as deltas, and a full frame is every
    /// layer's ops copied again.
    public var full: [UInt8] {
        var full = FrameEncoder.header(seq: seq, flags: 0, time: time, count: layers.count)
        for layer in layers {
            if let track = layer.track {
                FrameEncoder.appendLayer(&full, id: layer.id, track: track, ops: layer.list.bytes)
            } else {
                FrameEncoder.appendLayer(
                    &full, id: layer.id, dx: Float(layer.offset.x), dy: Float(layer.offset.y), ops: layer.list.bytes)
            }
        }
        return full
    }
}

public enum FrameFormat {
    public static let kind: UInt8 = 0x46  // "F"
    public static let flagDelta: UInt8 = 0x01
    public static let layerOps: UInt8 = 0
    public static let layerKeep: UInt8 = 1
    /// The ops the layer held, at a new offset.
    public static let layerMove: UInt8 = 2
    /// The ops the layer held, its offset moving along a track.
    public static let layerTrack: UInt8 = 3
    /// New ops, the offset moving along a track.
    public static let layerOpsTrack: UInt8 = 4
    /// A track's axes byte with this bit: it wraps (`Track.Wrap`), and says how after its count.
    public static let trackWraps: UInt8 = 4
    /// With this one: its knots' numbers are float64 (`Track.wide`).
    public static let trackWide: UInt8 = 8
    /// With this one: it is eased (`Track.curves`); its curves follow the wrap.
    public static let trackEased: UInt8 = 16
    /// An eased track's curve as one byte when CSS names it (1 `ease`, 2 `ease-in`, 3 `ease-out`,
    /// 4 `ease-in-out`, in float32 as every curve of a track); 0 and its four numbers else.
    public static let namedCurves = [CubicBezierEasing.ease, .easeIn, .easeOut, .easeInOut].map(\.float32)
    /// A timing curve as a track or a tween sends it: u8 its CSS name (`namedCurves`), or 0 and
    /// x1 y1 x2 y2 f32.
    static func appendCurve(_ b: inout [UInt8], _ c: CubicBezierEasing) {
        if let name = namedCurves.firstIndex(of: c.float32) {
            b.append(UInt8(name + 1))
        } else {
            b.append(0)
            for v in [c.x1, c.y1, c.x2, c.y2] { append32(&b, Float(v).bitPattern) }
        }
    }

    /// kind, version, flags, reserved, seq u32, time f64, layer count u16.
    public static let headerSize = 18
}

public struct FrameEncoder: Sendable {
    public private(set) var seq: UInt32 = 0
    /// Each layer's ops and offset (as sent: float32, or its track) in frame `seq`, in its order.
    /// A list, not a dictionary: a scene lists its layers in the same order frame after frame, so
    /// each is found at its own index, and no table is built and hashed every frame.
    private var previous: [Sent] = []
    /// The list before `previous`, kept for its storage.
    private var spare: [Sent] = []

    private struct Sent {
        var id: UInt16
        var ops: [UInt8]
        var dx, dy: Float
        var track: Track?

        /// Whether the receiver shows the offset (`dx`, `dy`) already: its fixed offset, or where
        /// its track rests (a track holds its last knot after its end, so a glide that ends as
        /// planned costs nothing more: no frame at all when nothing else changed).
        func holds(_ dx: Float, _ dy: Float) -> Bool {
            let (x, y) = track.map { ($0.rest.x, $0.rest.y) } ?? (Double(self.dx), Double(self.dy))
            // == and not bits: 0 and −0 (a wrap's upper end and a column at rest on its top 0) are one place.
            return Float(x) == dx && Float(y) == dy
        }
    }

    public init() {}

    /// `layers`' ids are unique (a scene's are: docs/PROTOCOL.md, "Layers").
    public mutating func encode(_ layers: [Layer], time: Double) -> EncodedFrame {
        assert(Set(layers.map(\.id)).count == layers.count, "a layer id twice in one frame")
        seq &+= 1
        var delta = Self.header(seq: seq, flags: FrameFormat.flagDelta, time: time, count: layers.count)
        var changed = 0, kept = 0
        // Moved out of `spare`, not copied: emptied in place, its storage is reused.
        var next: [Sent] = []
        swap(&next, &spare)
        next.removeAll(keepingCapacity: true)
        next.reserveCapacity(layers.count)
        for (k, layer) in layers.enumerated() {
            let ops = layer.list.bytes
            let dx = Float(layer.offset.x), dy = Float(layer.offset.y)
            let was = k < previous.count && previous[k].id == layer.id ? k : previous.firstIndex { $0.id == layer.id }
            if was != nil { kept += 1 }
            if let was, previous[was].ops == ops {
                let old = previous[was]
                append16(&delta, layer.id)
                if let track = layer.track {
                    // A track stands for every offset on its way: the same track, nothing new.
                    if old.track == track {
                        delta.append(FrameFormat.layerKeep)
                    } else {
                        delta.append(FrameFormat.layerTrack)
                        Self.appendTrack(&delta, track)
                        changed += 1
                    }
                } else if old.holds(dx, dy) {
                    delta.append(FrameFormat.layerKeep)
                } else {
                    delta.append(FrameFormat.layerMove)
                    append32(&delta, dx.bitPattern); append32(&delta, dy.bitPattern)
                    changed += 1
                }
            } else if let track = layer.track {
                Self.appendLayer(&delta, id: layer.id, track: track, ops: ops)
                changed += 1
            } else {
                Self.appendLayer(&delta, id: layer.id, dx: dx, dy: dy, ops: ops)
                changed += 1
            }
            next.append(Sent(id: layer.id, ops: ops, dx: dx, dy: dy, track: layer.track))
        }
        // Layer ids are unique within a frame: those of the last frame not found are gone.
        let removed = max(0, previous.count - kept)
        spare = previous
        previous = next
        return EncodedFrame(seq: seq, time: time, delta: delta, changedLayers: changed + removed, layers: layers)
    }

    static func header(seq: UInt32, flags: UInt8, time: Double, count: Int) -> [UInt8] {
        var b: [UInt8] = [FrameFormat.kind, UInt8(ProtocolVersion.current), flags, 0]
        b.reserveCapacity(1024)
        append32(&b, seq)
        append64(&b, time.bitPattern)
        append16(&b, UInt16(count))
        return b
    }

    static func appendLayer(_ b: inout [UInt8], id: UInt16, dx: Float, dy: Float, ops: [UInt8]) {
        append16(&b, id); b.append(FrameFormat.layerOps)
        append32(&b, dx.bitPattern); append32(&b, dy.bitPattern)
        append32(&b, UInt32(ops.count)); b.append(contentsOf: ops)
    }

    static func appendLayer(_ b: inout [UInt8], id: UInt16, track: Track, ops: [UInt8]) {
        append16(&b, id); b.append(FrameFormat.layerOpsTrack)
        appendTrack(&b, track)
        append32(&b, UInt32(ops.count)); b.append(contentsOf: ops)
    }

    /// start f64, axes u8 (+ `FrameFormat.trackWraps`, `trackWide`, `trackEased`), knot count u16,
    /// the wrap's upper and period f32 if it wraps, if eased its curve count u8 and each curve (u8
    /// its CSS name, `FrameFormat.namedCurves`, or 0 and x1 y1 x2 y2 f32), then per knot t and, per
    /// axis moved, position and (not eased) velocity (x first): f32, or f64 if wide; and if eased
    /// the knot's curve u8.
    static func appendTrack(_ b: inout [UInt8], _ track: Track) {
        append64(&b, track.start.bitPattern)
        b.append(
            track.axes.rawValue | (track.wrap == nil ? 0 : FrameFormat.trackWraps)
                | (track.wide ? FrameFormat.trackWide : 0) | (track.curves == nil ? 0 : FrameFormat.trackEased))
        append16(&b, UInt16(track.knots.count))
        func f(_ v: Double) { append32(&b, Float(v).bitPattern) }
        func d(_ v: Double) {
            if track.wide {
                append64(&b, v.bitPattern)
            } else {
                f(v)
            }
        }
        if let wrap = track.wrap { f(wrap.upper); f(wrap.period) }
        let eased = track.curves != nil
        if let curves = track.curves {
            b.append(UInt8(curves.count))
            for c in curves { FrameFormat.appendCurve(&b, c) }
        }
        for k in track.knots {
            d(k.t)
            if track.axes != .y {
                d(k.x)
                if !eased { d(k.vx) }
            }
            if track.axes != .x {
                d(k.y)
                if !eased { d(k.vy) }
            }
            if eased { b.append(k.curve) }
        }
    }
}
