import ScrollCore

/// A display list written with `DisplayList`'s own calls, chosen by the fuzzer's bytes, and
/// the ops the decoder must read back from it (docs/PROTOCOL.md, "Display list").
struct OpProgram {
    var list = DisplayList()
    var expected: [DecodedOp] = []

    /// Up to `maxOps` ops; values are float32 (what the wire carries), so they survive exactly.
    init(_ input: inout FuzzBytes, maxOps: Int) {
        for _ in 0..<(Int(input.u8()) % (maxOps + 1)) where !input.isEmpty {
            append(&input)
        }
    }

    private mutating func append(_ input: inout FuzzBytes) {
        switch DisplayOp.allCases[Int(input.u8()) % DisplayOp.allCases.count] {
        case .save: list.save(); expected.append(.save)
        case .restore: list.restore(); expected.append(.restore)
        case .scroll: list.scroll(); expected.append(.scroll)
        case .translate:
            let (x, y) = (input.float(), input.float())
            list.translate(x, y); expected.append(.translate(x, y))
        case .scale:
            let (x, y) = (input.float(), input.float())
            list.scale(x, y); expected.append(.scale(x, y))
        case .clipRect:
            let r = rect(&input)
            list.clip(r); expected.append(.clip(r))
        case .setFill:
            let c = color(&input)
            list.setFill(c); expected.append(.setFill(c))
        case .setStroke:
            let (c, w) = (color(&input), input.float())
            list.setStroke(c, width: w); expected.append(.setStroke(c, width: w))
        case .setAlpha:
            let a = input.float()
            list.setAlpha(a); expected.append(.setAlpha(a))
        case .fillRect:
            let r = rect(&input)
            list.fillRect(r); expected.append(.fillRect(r))
        case .fillRoundRect:
            let (r, radius) = (rect(&input), input.float())
            list.fillRoundRect(r, radius: radius); expected.append(.fillRoundRect(r, radius: radius))
        case .fillCircle:
            let (c, radius) = (Point(x: input.float(), y: input.float()), input.float())
            list.fillCircle(center: c, radius: radius); expected.append(.fillCircle(c, radius: radius))
        case .line:
            let (x0, y0, x1, y1) = (input.float(), input.float(), input.float(), input.float())
            list.line(x0, y0, x1, y1); expected.append(.line(x0, y0, x1, y1))
        case .fillPolygon:
            let points = (0..<Int(input.u8())).map { _ in Point(x: input.float(), y: input.float()) }
            list.fillPolygon(points); expected.append(.fillPolygon(points))
        case .lineRun:
            let (x0, y0, x1, y1) = (input.float(), input.float(), input.float(), input.float())
            let (dx, dy) = (input.float(), input.float())
            let count = Int(input.u8()) | Int(input.u8()) << 8
            let run = LineRun(
                x0: x0, y0: y0, x1: x1, y1: y1, dx: dx, dy: dy, count: count, skipEvery: Int(input.u8()),
                skipPhase: Int(input.u8()))
            list.lineRun(
                x0, y0, x1, y1, dx: dx, dy: dy, count: count, skipEvery: run.skipEvery, skipPhase: run.skipPhase)
            expected.append(.lineRun(run))
        case .fillPolygonSmall:
            // Read back as the polygon it stands for, each point computed as the decoder's docs say.
            let (center, unit) = (Point(x: input.float(), y: input.float()), input.float())
            let points = (0..<Int(input.u8())).map { _ in
                (x: Int8(bitPattern: input.u8()), y: Int8(bitPattern: input.u8()))
            }
            list.fillPolygonSmall(center: center, unit: unit, points: points)
            expected.append(
                .fillPolygon(
                    points.map { Point(x: center.x + Double($0.x) * unit, y: center.y + Double($0.y) * unit) }))
        case .gradedRun:
            let (x0, y, dx) = (input.float(), input.float(), input.float())
            let count = Int(input.u8()) | Int(input.u8()) << 8, focus = input.float()
            let grades = (0..<Int(input.u8())).map { _ in
                GradedRun.Grade(
                    below: input.float(), width: input.float(), height: input.float(), fill: color(&input))
            }
            let run = GradedRun(x0: x0, y: y, dx: dx, count: count, focus: focus, grades: grades)
            list.gradedRun(run); expected.append(.gradedRun(run))
        case .pulse:
            let center = Point(x: input.float(), y: input.float())
            let radius = (from: input.float(), to: input.float()), alpha = (from: input.float(), to: input.float())
            let (duration, fill, base) = (input.float(), color(&input), input.float())
            let starts = (0..<Int(input.u8())).map { _ in base + input.float() }
            list.pulse(
                Pulse(center: center, radius: radius, alpha: alpha, duration: duration, fill: fill, starts: starts))
            // Read back as the decoder's docs say: each start a float32 after the first.
            let first = starts.first ?? 0
            expected.append(
                .pulse(
                    Pulse(
                        center: center, radius: radius, alpha: alpha, duration: duration, fill: fill,
                        starts: starts.map { first + Double(Float($0 - first)) })))
        case .lens:
            let (center, focus) = (Point(x: input.float(), y: input.float()), input.float())
            let knots = (0..<Int(input.u8())).map { _ in
                Lens.Knot(distance: input.float(), scale: input.float(), dy: input.float())
            }
            let lens = Lens(center: center, focus: focus, knots: knots)
            list.lens(lens); expected.append(.lens(lens))
        case .tween:
            // A valid one (the decoder refuses a negative duration or a curve whose x leaves 0…1):
            // a named curve, or one of fuzzed numbers with x in 0…1.
            let (start, duration) = (input.float(), abs(input.float()))
            let pick = Int(input.u8()) % (FrameFormat.namedCurves.count + 1)
            let curve =
                pick > 0
                ? FrameFormat.namedCurves[pick - 1]
                : CubicBezierEasing(Double(input.u8()) / 255, input.float(), Double(input.u8()) / 255, input.float())
            let parts = input.u8()
            func point() -> Point { Point(x: input.float(), y: input.float()) }
            let tween = Tween(
                start: start, duration: duration, curve: curve,
                move: parts & 1 != 0 ? Tween.Move(from: point(), to: point()) : nil,
                scale: parts & 2 != 0 ? Tween.Scale(center: point(), from: input.float(), to: input.float()) : nil,
                fade: parts & 4 != 0 ? Tween.Fade(from: input.float(), to: input.float()) : nil)
            list.tween(tween); expected.append(.tween(tween))
        case .numberRun:
            let (x0, y0, dx, dy, size) = (input.float(), input.float(), input.float(), input.float(), input.float())
            let align = [TextAlign.left, .center, .right][Int(input.u8()) % 3]
            let baseline = [TextBaseline.top, .middle, .alphabetic][Int(input.u8()) % 3]
            let weight = [FontWeight.regular, .bold][Int(input.u8()) % 2]
            let count = Int(input.u8()) | Int(input.u8()) << 8
            let (first, step, lo, hi) = (int32(&input), int32(&input), int32(&input), int32(&input))
            // lo > hi: a run that does not wrap, read back as one.
            let run = NumberRun(
                x0: x0, y0: y0, dx: dx, dy: dy, size: size, align: align, baseline: baseline, weight: weight,
                count: count, first: first, step: step, wrap: lo <= hi ? lo...hi : nil)
            list.numberRun(run); expected.append(.numberRun(run))
        case .text:
            // ≤ 3 × 300 bytes of UTF-8: within the u16 length, so nothing is cut.
            let s = input.string(maxBytes: 300)
            let (x, y, size) = (input.float(), input.float(), input.float())
            let align = [TextAlign.left, .center, .right][Int(input.u8()) % 3]
            let baseline = [TextBaseline.top, .middle, .alphabetic][Int(input.u8()) % 3]
            let weight = [FontWeight.regular, .bold][Int(input.u8()) % 2]
            list.text(s, x: x, y: y, size: size, align: align, baseline: baseline, weight: weight)
            expected.append(.text(s, x: x, y: y, size: size, align: align, baseline: baseline, weight: weight))
        case .owner:
            // ≤ 3 × 64 bytes: within the u8 length, so nothing is cut.
            let client = input.string(maxBytes: 64)
            list.owner(client); expected.append(.owner(client))
        }
    }

    private func rect(_ input: inout FuzzBytes) -> Rect {
        Rect(x: input.float(), y: input.float(), width: input.float(), height: input.float())
    }

    private func int32(_ input: inout FuzzBytes) -> Int { Int(Int32(bitPattern: input.u32())) }

    private func color(_ input: inout FuzzBytes) -> Color { Color(input.u8(), input.u8(), input.u8(), input.u8()) }
}
