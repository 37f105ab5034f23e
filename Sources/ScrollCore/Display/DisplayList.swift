/// Operation codes of the binary display list (docs/PROTOCOL.md, "Display list").
/// Numbers are little-endian; coordinates are float32 in scene points.
public enum DisplayOp: UInt8, Sendable, CaseIterable {
    case save = 0x01  // —
    case restore = 0x02  // —
    case translate = 0x03  // dx, dy
    case clipRect = 0x04  // x, y, w, h
    case setFill = 0x05  // r, g, b, a (u8 each)
    case setStroke = 0x06  // r, g, b, a (u8 each), lineWidth
    case fillRect = 0x07  // x, y, w, h
    case line = 0x08  // x0, y0, x1, y1 (stroked)
    case text = 0x09  // x, y, size, align u8, baseline u8, weight u8, byteCount u16, UTF-8
    case fillRoundRect = 0x0A  // x, y, w, h, radius
    case fillCircle = 0x0B  // cx, cy, r
    case fillPolygon = 0x0C  // count u8, then count × (x, y)
    case scale = 0x0D  // sx, sy
    case setAlpha = 0x0E  // alpha (0…1)
    case owner = 0x0F  // byteCount u8, UTF-8 client id (0 bytes: no owner)
    case scroll = 0x10  // — (translate by the layer's offset)
    case lineRun = 0x11  // x0, y0, x1, y1, dx, dy, count u16, skipEvery u8, skipPhase u8
    case fillPolygonSmall = 0x12  // cx, cy, unit, count u8, then count × (x i8, y i8)
    /// x0, y, dx, count u16, focus, grades u8, then grades × (below, width, height, r, g, b, a u8)
    case gradedRun = 0x13
    /// cx, cy, r0, r1, a0, a1, duration, r, g, b, a (u8), base f64, count u16, then count × (start − base)
    case pulse = 0x14
    /// cx, cy, focus, count u8, then count × (distance, scale, dy): a save, then a transform by where the layer shows (cx, cy)
    case lens = 0x15
    /// x0, y0, dx, dy, size, align u8, baseline u8, weight u8, count u16, first i32, step i32, lo i32, hi i32
    case numberRun = 0x16
    /// start f64, duration, curve (u8 CSS name, or 0 and x1 y1 x2 y2), parts u8, then per part
    /// its numbers: a save, then a move, scale and fade over room time (`Tween`)
    case tween = 0x17
}

public enum TextAlign: UInt8, Sendable {
    case left = 0
    case center = 1
    case right = 2
}
public enum TextBaseline: UInt8, Sendable {
    case top = 0
    case middle = 1
    case alphabetic = 2
}
public enum FontWeight: UInt8, Sendable {
    case regular = 0
    case bold = 1
}

/// Appends display operations as bytes; no intermediate objects on the frame path.
public struct DisplayList: Sendable, Equatable {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity n: Int = 256) { bytes.reserveCapacity(n) }

    public mutating func save() { op(.save) }
    public mutating func restore() { op(.restore) }
    public mutating func translate(_ dx: Double, _ dy: Double) { op(.translate); f(dx); f(dy) }
    /// Translates by the layer's offset (`Layer.offset`, the widget's `layerOffset`): the ops
    /// after it, up to the matching restore or the layer's end, move with it, so a scroll that
    /// changes only the offset resends no ops.
    public mutating func scroll() { op(.scroll) }
    public mutating func scale(_ sx: Double, _ sy: Double) { op(.scale); f(sx); f(sy) }
    public mutating func clip(_ r: Rect) { op(.clipRect); rect(r) }
    public mutating func setFill(_ c: Color) { op(.setFill); color(c) }
    public mutating func setStroke(_ c: Color, width: Double) { op(.setStroke); color(c); f(width) }
    public mutating func setAlpha(_ a: Double) { op(.setAlpha); f(a) }
    public mutating func fillRect(_ r: Rect) { op(.fillRect); rect(r) }
    public mutating func fillRoundRect(_ r: Rect, radius: Double) { op(.fillRoundRect); rect(r); f(radius) }
    public mutating func fillCircle(center: Point, radius: Double) {
        op(.fillCircle); f(center.x); f(center.y); f(radius)
    }

    public mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        op(.line); f(x0); f(y0); f(x1); f(y1)
    }

    /// `count` copies of the line (x0, y0)–(x1, y1), copy i shifted by i·(dx, dy), leaving out
    /// the copies whose i % `skipEvery` == `skipPhase` (skipEvery 0: none): a ruler's minor ticks
    /// in 29 bytes instead of 17 per tick.
    public mutating func lineRun(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, dx: Double, dy: Double,
        count: Int, skipEvery: Int = 0, skipPhase: Int = 0
    ) {
        precondition((0...Int(UInt16.max)).contains(count), "a line run has at most 65535 lines")
        precondition((0...255).contains(skipEvery) && (0...255).contains(skipPhase), "skip fields are u8")
        op(.lineRun); f(x0); f(y0); f(x1); f(y1); f(dx); f(dy)
        u16(UInt16(count)); bytes.append(UInt8(skipEvery)); bytes.append(UInt8(skipPhase))
    }

    /// A row of marks sized and filled by their distance from a point as shown (`GradedRun`):
    /// 20 bytes and 16 a grade, however many marks, and the same ops whatever the layer's offset.
    public mutating func gradedRun(_ run: GradedRun) {
        precondition((0...Int(UInt16.max)).contains(run.count), "a graded run has at most 65535 marks")
        precondition(run.grades.count <= 255, "a graded run has at most 255 grades")
        op(.gradedRun); f(run.x0); f(run.y); f(run.dx); u16(UInt16(run.count)); f(run.focus)
        bytes.append(UInt8(run.grades.count))
        for g in run.grades {
            f(g.below); f(g.width); f(g.height); color(g.fill)
        }
    }

    /// A disc that starts again at given room times, growing and fading (`Pulse`); its starts
    /// go as float32 seconds after the first, so a glide's clicks are 4 bytes each.
    public mutating func pulse(_ pulse: Pulse) {
        precondition(pulse.starts.count <= Int(UInt16.max), "a pulse has at most 65535 starts")
        op(.pulse); f(pulse.center.x); f(pulse.center.y); f(pulse.radius.from); f(pulse.radius.to)
        f(pulse.alpha.from); f(pulse.alpha.to); f(pulse.duration); color(pulse.fill)
        let base = pulse.starts.first ?? 0
        append64(&bytes, base.bitPattern)
        u16(UInt16(pulse.starts.count))
        for start in pulse.starts { f(start - base) }
    }

    /// Saves, then scales and moves the ops up to the matching restore by where the layer shows a
    /// point (`Lens`): 14 bytes and 12 a knot.
    public mutating func lens(_ lens: Lens) {
        precondition(lens.knots.count <= 255, "a lens has at most 255 knots")
        op(.lens); f(lens.center.x); f(lens.center.y); f(lens.focus); bytes.append(UInt8(lens.knots.count))
        for k in lens.knots {
            f(k.distance); f(k.scale); f(k.dy)
        }
    }

    /// A row of whole numbers drawn as text (`NumberRun`): 42 bytes however many, instead of a
    /// `text` op each. No wrap goes as lo 0, hi −1.
    public mutating func numberRun(_ run: NumberRun) {
        precondition((0...Int(UInt16.max)).contains(run.count), "a number run has at most 65535 numbers")
        let (lo, hi) = run.wrap.map { ($0.lowerBound, $0.upperBound) } ?? (0, -1)
        let ints = [run.first, run.step, lo, hi]
        precondition(ints.allSatisfy { Int(Int32.min)...Int(Int32.max) ~= $0 }, "a number run's integers are Int32")
        op(.numberRun); f(run.x0); f(run.y0); f(run.dx); f(run.dy); f(run.size)
        bytes.append(run.align.rawValue); bytes.append(run.baseline.rawValue); bytes.append(run.weight.rawValue)
        u16(UInt16(run.count))
        for v in ints { append32(&bytes, UInt32(bitPattern: Int32(v))) }
    }

    /// Saves, then moves, scales and fades the ops up to the matching restore over room time
    /// (`Tween`): 15 bytes (a curve CSS names), 16 a move, 16 a scale, 8 a fade.
    public mutating func tween(_ tween: Tween) {
        op(.tween)
        append64(&bytes, tween.start.bitPattern)
        f(tween.duration)
        FrameFormat.appendCurve(&bytes, tween.curve)
        bytes.append(
            (tween.move == nil ? 0 : Tween.Parts.move) | (tween.scale == nil ? 0 : Tween.Parts.scale)
                | (tween.fade == nil ? 0 : Tween.Parts.fade))
        if let m = tween.move { f(m.from.x); f(m.from.y); f(m.to.x); f(m.to.y) }
        if let s = tween.scale { f(s.center.x); f(s.center.y); f(s.from); f(s.to) }
        if let a = tween.fade { f(a.from); f(a.to) }
    }

    public mutating func fillPolygon(_ points: [Point]) {
        precondition(points.count <= 255, "polygon has more than 255 points")
        op(.fillPolygon); bytes.append(UInt8(points.count))
        for p in points { f(p.x); f(p.y) }
    }

    /// A filled polygon of small integer points around (cx, cy): point i is at
    /// (cx + x·unit, cy + y·unit), 2 bytes a point instead of 8 (the carousel's glyphs, whose
    /// shapes are fixed and only move and scale).
    public mutating func fillPolygonSmall(center: Point, unit: Double, points: [(x: Int8, y: Int8)]) {
        precondition(points.count <= 255, "polygon has more than 255 points")
        op(.fillPolygonSmall); f(center.x); f(center.y); f(unit); bytes.append(UInt8(points.count))
        for p in points {
            bytes.append(UInt8(bitPattern: p.x)); bytes.append(UInt8(bitPattern: p.y))
        }
    }

    public mutating func text(
        _ s: String, x: Double, y: Double, size: Double,
        align: TextAlign = .left, baseline: TextBaseline = .alphabetic,
        weight: FontWeight = .regular
    ) {
        var utf8 = Array(s.utf8)
        if utf8.count > Int(UInt16.max) { utf8 = Array(utf8.prefix(Int(UInt16.max))) }
        op(.text); f(x); f(y); f(size)
        bytes.append(align.rawValue); bytes.append(baseline.rawValue); bytes.append(weight.rawValue)
        u16(UInt16(utf8.count)); bytes.append(contentsOf: utf8)
    }

    /// The ops that follow, up to the next `owner` or the layer's end, are `client`'s own: the
    /// page of that client skips them (its own pointer is never drawn to it). "" ends the run.
    public mutating func owner(_ client: String) {
        var utf8 = Array(client.utf8)
        if utf8.count > Int(UInt8.max) { utf8 = Array(utf8.prefix(Int(UInt8.max))) }
        op(.owner); bytes.append(UInt8(utf8.count)); bytes.append(contentsOf: utf8)
    }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    private mutating func op(_ o: DisplayOp) { bytes.append(o.rawValue) }
    private mutating func color(_ c: Color) {
        bytes.append(c.r); bytes.append(c.g); bytes.append(c.b); bytes.append(c.a)
    }
    private mutating func rect(_ r: Rect) { f(r.x); f(r.y); f(r.width); f(r.height) }
    private mutating func f(_ v: Double) { append32(&bytes, Float(v).bitPattern) }
    private mutating func u16(_ v: UInt16) { append16(&bytes, v) }
}

/// Little-endian writers shared by the display list, the frame encoder and the cluster's relay messages.
package func append16(_ b: inout [UInt8], _ v: UInt16) { b.append(UInt8(v & 0xFF)); b.append(UInt8(v >> 8)) }
package func append32(_ b: inout [UInt8], _ v: UInt32) {
    b.append(UInt8(v & 0xFF)); b.append(UInt8(v >> 8 & 0xFF)); b.append(UInt8(v >> 16 & 0xFF)); b.append(UInt8(v >> 24))
}
package func append64(_ b: inout [UInt8], _ v: UInt64) {
    append32(&b, UInt32(v & 0xFFFF_FFFF)); append32(&b, UInt32(v >> 32))
}
