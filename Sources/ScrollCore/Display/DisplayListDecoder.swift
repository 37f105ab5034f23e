/// One decoded display operation (for the SVG renderer, tests and tools; the
/// browser decodes the same bytes in Public/painter.js).
public enum DecodedOp: Sendable, Equatable {
    case save, restore
    case translate(Double, Double)
    case scale(Double, Double)
    case clip(Rect)
    case setFill(Color)
    case setStroke(Color, width: Double)
    case setAlpha(Double)
    case fillRect(Rect)
    case fillRoundRect(Rect, radius: Double)
    case fillCircle(Point, radius: Double)
    case line(Double, Double, Double, Double)
    case fillPolygon([Point])
    case text(String, x: Double, y: Double, size: Double, align: TextAlign, baseline: TextBaseline, weight: FontWeight)
    /// What follows belongs to this client ("": to no one), until the next `owner`.
    case owner(String)
    /// Translate by the layer's offset (`Layer.offset`).
    case scroll
    case lineRun(LineRun)
    case gradedRun(GradedRun)
    case pulse(Pulse)
    /// A save, then `Lens`'s transform, up to the matching restore.
    case lens(Lens)
    case numberRun(NumberRun)
    /// A save, then `Tween`'s move, scale and fade, up to the matching restore.
    case tween(Tween)
}

/// `DisplayList.lineRun`'s operands.
public struct LineRun: Sendable, Equatable {
    public var x0, y0, x1, y1, dx, dy: Double
    public var count, skipEvery, skipPhase: Int

    public init(
        x0: Double, y0: Double, x1: Double, y1: Double, dx: Double, dy: Double,
        count: Int, skipEvery: Int = 0, skipPhase: Int = 0
    ) {
        (self.x0, self.y0, self.x1, self.y1, self.dx, self.dy) = (x0, y0, x1, y1, dx, dy)
        (self.count, self.skipEvery, self.skipPhase) = (count, skipEvery, skipPhase)
    }

    /// The lines drawn, in order: (x0, y0, x1, y1) each.
    public var lines: [(Double, Double, Double, Double)] {
        (0..<count).compactMap { i in
            if skipEvery > 0 && i % skipEvery == skipPhase { return nil }
            let sx = Double(i) * dx, sy = Double(i) * dy
            return (x0 + sx, y0 + sy, x1 + sx, y1 + sy)
        }
    }
}

public struct DisplayListDecodingError: Error, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "display list byte \(offset): \(reason)" }
}

/// Reads little-endian fields; every read is bounds-checked.
package struct ByteReader {
    package let bytes: [UInt8]
    package var offset: Int

    package init(_ bytes: [UInt8], offset: Int = 0) { self.bytes = bytes; self.offset = offset }

    package var isAtEnd: Bool { offset >= bytes.count }

    package mutating func u8() throws -> UInt8 {
        guard offset < bytes.count else { throw DisplayListDecodingError(offset: offset, reason: "truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }
    package mutating func u16() throws -> UInt16 { UInt16(try u8()) | UInt16(try u8()) << 8 }
    package mutating func u32() throws -> UInt32 { UInt32(try u16()) | UInt32(try u16()) << 16 }
    package mutating func i32() throws -> Int { Int(Int32(bitPattern: try u32())) }
    package mutating func f32() throws -> Double { Double(Float(bitPattern: try u32())) }
    package mutating func f64() throws -> Double {
        Double(bitPattern: UInt64(try u32()) | UInt64(try u32()) << 32)
    }
    /// A timing curve as `FrameFormat.appendCurve` writes it; `what` names its owner in errors.
    package mutating func curve(of what: String) throws -> CubicBezierEasing {
        let at = offset
        let name = Int(try u8())
        if name > 0 {
            guard name <= FrameFormat.namedCurves.count else {
                throw DisplayListDecodingError(offset: at, reason: "\(what) curve named \(name)")
            }
            return FrameFormat.namedCurves[name - 1]
        }
        let c = [try f32(), try f32(), try f32(), try f32()]
        // A timing curve's x runs 0…1 (CSS), so it is a function of time.
        guard c.allSatisfy(\.isFinite), (0...1).contains(c[0]), (0...1).contains(c[2]) else {
            throw DisplayListDecodingError(offset: at, reason: "\(what) curve that is not a timing curve")
        }
        return CubicBezierEasing(c[0], c[1], c[2], c[3])
    }
    package mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, offset + n <= bytes.count else {
            throw DisplayListDecodingError(offset: offset, reason: "truncated (wanted \(n) bytes)")
        }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }
}

public enum DisplayListDecoder {
    public static func decode(_ bytes: [UInt8]) throws -> [DecodedOp] {
        var r = ByteReader(bytes)
        var ops: [DecodedOp] = []
        func rect() throws -> Rect { Rect(x: try r.f32(), y: try r.f32(), width: try r.f32(), height: try r.f32()) }
        func color() throws -> Color { Color(try r.u8(), try r.u8(), try r.u8(), try r.u8()) }
        /// A byte no one knows reads as the default, as the page does.
        func textStyle() throws -> (TextAlign, TextBaseline, FontWeight) {
            (
                TextAlign(rawValue: try r.u8()) ?? .left, TextBaseline(rawValue: try r.u8()) ?? .alphabetic,
                FontWeight(rawValue: try r.u8()) ?? .regular
            )
        }
        while !r.isAtEnd {
            let at = r.offset
            guard let op = DisplayOp(rawValue: try r.u8()) else {
                throw DisplayListDecodingError(offset: at, reason: "unknown op 0x\(String(bytes[at], radix: 16))")
            }
            switch op {
            case .save: ops.append(.save)
            case .restore: ops.append(.restore)
            case .translate: ops.append(.translate(try r.f32(), try r.f32()))
            case .scale: ops.append(.scale(try r.f32(), try r.f32()))
            case .clipRect: ops.append(.clip(try rect()))
            case .setFill: ops.append(.setFill(try color()))
            case .setStroke: ops.append(.setStroke(try color(), width: try r.f32()))
            case .setAlpha: ops.append(.setAlpha(try r.f32()))
            case .fillRect: ops.append(.fillRect(try rect()))
            case .fillRoundRect: ops.append(.fillRoundRect(try rect(), radius: try r.f32()))
            case .fillCircle: ops.append(.fillCircle(Point(x: try r.f32(), y: try r.f32()), radius: try r.f32()))
            case .line: ops.append(.line(try r.f32(), try r.f32(), try r.f32(), try r.f32()))
            case .fillPolygon:
                let n = Int(try r.u8())
                var pts: [Point] = []
                for _ in 0..<n { pts.append(Point(x: try r.f32(), y: try r.f32())) }
                ops.append(.fillPolygon(pts))
            case .text:
                let x = try r.f32(), y = try r.f32(), size = try r.f32()
                let (align, baseline, weight) = try textStyle()
                let n = Int(try r.u16())
                let s = String(decoding: try r.take(n), as: UTF8.self)
                ops.append(.text(s, x: x, y: y, size: size, align: align, baseline: baseline, weight: weight))
            case .owner:
                let n = Int(try r.u8())
                ops.append(.owner(String(decoding: try r.take(n), as: UTF8.self)))
            case .scroll: ops.append(.scroll)
            case .fillPolygonSmall:
                let cx = try r.f32(), cy = try r.f32(), unit = try r.f32()
                let n = Int(try r.u8())
                var pts: [Point] = []
                for _ in 0..<n {
                    let x = Double(Int8(bitPattern: try r.u8())), y = Double(Int8(bitPattern: try r.u8()))
                    pts.append(Point(x: cx + x * unit, y: cy + y * unit))
                }
                // Drawn as any polygon: readers need not know the compact form.
                ops.append(.fillPolygon(pts))
            case .lineRun:
                let x0 = try r.f32(), y0 = try r.f32(), x1 = try r.f32(), y1 = try r.f32()
                let dx = try r.f32(), dy = try r.f32()
                let count = Int(try r.u16()), every = Int(try r.u8()), phase = Int(try r.u8())
                ops.append(
                    .lineRun(
                        LineRun(
                            x0: x0, y0: y0, x1: x1, y1: y1, dx: dx, dy: dy, count: count, skipEvery: every,
                            skipPhase: phase)))
            case .gradedRun:
                let x0 = try r.f32(), y = try r.f32(), dx = try r.f32()
                let count = Int(try r.u16()), focus = try r.f32()
                var grades: [GradedRun.Grade] = []
                for _ in 0..<Int(try r.u8()) {
                    grades.append(
                        GradedRun.Grade(below: try r.f32(), width: try r.f32(), height: try r.f32(), fill: try color()))
                }
                ops.append(.gradedRun(GradedRun(x0: x0, y: y, dx: dx, count: count, focus: focus, grades: grades)))
            case .lens:
                let center = Point(x: try r.f32(), y: try r.f32()), focus = try r.f32()
                var knots: [Lens.Knot] = []
                for _ in 0..<Int(try r.u8()) {
                    knots.append(Lens.Knot(distance: try r.f32(), scale: try r.f32(), dy: try r.f32()))
                }
                ops.append(.lens(Lens(center: center, focus: focus, knots: knots)))
            case .numberRun:
                let x0 = try r.f32(), y0 = try r.f32(), dx = try r.f32(), dy = try r.f32(), size = try r.f32()
                let (align, baseline, weight) = try textStyle()
                let count = Int(try r.u16())
                let first = try r.i32(), step = try r.i32(), lo = try r.i32(), hi = try r.i32()
                ops.append(
                    .numberRun(
                        NumberRun(
                            x0: x0, y0: y0, dx: dx, dy: dy, size: size, align: align, baseline: baseline,
                            weight: weight, count: count, first: first, step: step, wrap: lo <= hi ? lo...hi : nil)))
            case .tween:
                let start = try r.f64(), duration = try r.f32(), curve = try r.curve(of: "a tween")
                guard start.isFinite, duration.isFinite, duration >= 0 else {
                    throw DisplayListDecodingError(offset: at, reason: "a tween from \(start) for \(duration) s")
                }
                let parts = try r.u8()
                guard parts & ~(Tween.Parts.move | Tween.Parts.scale | Tween.Parts.fade) == 0 else {
                    throw DisplayListDecodingError(offset: at, reason: "a tween with parts \(parts)")
                }
                func point() throws -> Point { Point(x: try r.f32(), y: try r.f32()) }
                var tween = Tween(start: start, duration: duration, curve: curve)
                if parts & Tween.Parts.move != 0 { tween.move = Tween.Move(from: try point(), to: try point()) }
                if parts & Tween.Parts.scale != 0 {
                    tween.scale = Tween.Scale(center: try point(), from: try r.f32(), to: try r.f32())
                }
                if parts & Tween.Parts.fade != 0 { tween.fade = Tween.Fade(from: try r.f32(), to: try r.f32()) }
                ops.append(.tween(tween))
            case .pulse:
                let center = Point(x: try r.f32(), y: try r.f32())
                let radius = (from: try r.f32(), to: try r.f32()), alpha = (from: try r.f32(), to: try r.f32())
                let duration = try r.f32(), fill = try color(), base = try r.f64()
                var starts: [Double] = []
                for _ in 0..<Int(try r.u16()) { starts.append(base + (try r.f32())) }
                ops.append(
                    .pulse(
                        Pulse(
                            center: center, radius: radius, alpha: alpha, duration: duration, fill: fill,
                            starts: starts)))
            }
        }
        return ops
    }
}
