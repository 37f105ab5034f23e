/// Renders display lists to SVG (snapshots, docs, `widget-replay --svg`), from the same
/// bytes the page paints: every layer is decoded with `DisplayListDecoder` and drawn with
/// canvas semantics (Public/js/painter.js). Output is deterministic: numbers are rounded
/// to 2 decimals (opacities to 3) and trimmed, clip ids are numbered in order.
public enum SVGRenderer {
    public static let fontFamily = "DejaVu Sans"

    /// The scene's current frame, at its time.
    public static func render(_ scene: Scene, theme: Theme) throws -> String {
        try render(scene.render(theme: theme), size: scene.size, time: scene.time)
    }

    public static func render(_ layers: [Layer], size: Size, time: Double = 0) throws -> String {
        render(
            ops: try layers.map { try DisplayListDecoder.decode($0.list.bytes) }, ids: layers.map(\.id),
            offsets: layers.map(\.offset), size: size, time: time)
    }

    /// One op list per layer, in z-order; `ids` name the layer groups (default 0, 1, …) and
    /// `offsets` are what each layer's `scroll` ops translate by (default none); `time` is the room
    /// time pulses and tweens are drawn at.
    public static func render(
        ops layers: [[DecodedOp]], ids: [UInt16]? = nil, offsets: [Point]? = nil, size: Size, time: Double = 0
    ) -> String {
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(num(size.width))\" height=\"\(num(size.height))\""
            + " viewBox=\"0 0 \(num(size.width)) \(num(size.height))\">\n"
        var writer = SVGWriter(time: time)
        for (i, ops) in layers.enumerated() {
            let id = ids.map { Int($0[i]) } ?? i
            out += "<g id=\"layer-\(id)\">\n"
            writer.paint(ops, offset: offsets?[i] ?? .zero, into: &out)
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// Up to `decimals` decimals, trailing zeros trimmed, never "-0".
    static func num(_ v: Double, decimals: Int = 2) -> String {
        guard v.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        // Beyond 1e15 there are no decimals to show, and Int64 would trap past 9.2e18.
        guard scaled < 1e15 else { return JSONValue.format(v.rounded()) }
        let units = Int64(scaled)
        let whole = units / Int64(scale), fraction = units % Int64(scale)
        var s = (v < 0 && units != 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            s += "." + digits
        }
        return s
    }
}

/// Canvas state → SVG. Fill, stroke and alpha live here and are written on every shape;
/// transforms and clips open `<g>` elements that the matching `restore` closes.
private struct SVGWriter {
    private struct State {
        var fill = Color(0, 0, 0)
        var stroke = Color(0, 0, 0)
        var lineWidth = 1.0
        var alpha = 1.0
        /// The horizontal moves of the tweens it is in: lenses and graded runs see where the
        /// layer shows them, their tweens' moves included.
        var shift = 0.0
        /// `<g>` elements opened since the save that started this state.
        var openGroups = 0
    }

    private var state = State()
    private var saved: [State] = []
    private var clipCount = 0
    /// The layer's offset, for its `scroll` ops and graded runs.
    private var offset = Point.zero
    /// Room time, for pulses and tweens.
    let time: Double

    init(time: Double) { self.time = time }

    /// One layer, from the canvas's default state (the painter saves/restores around each).
    mutating func paint(_ ops: [DecodedOp], offset: Point, into out: inout String) {
        self.offset = offset
        state = State()
        saved = []
        for op in ops { paint(op, into: &out) }
        while !saved.isEmpty { restore(into: &out) }
        close(state.openGroups, into: &out)
    }

    private mutating func paint(_ op: DecodedOp, into out: inout String) {
        switch op {
        case .save:
            saved.append(state)
            state.openGroups = 0
        case .restore:
            restore(into: &out)
        case .lens(let lens):
            paint(.save, into: &out)
            let t = lens.transform(offset: offset.x + state.shift), c = lens.center
            open(
                "<g transform=\"translate(\(n(c.x)),\(n(c.y + t.dy))) scale(\(n(t.scale))) translate(\(n(-c.x)),\(n(-c.y)))\">",
                into: &out)
        case let .translate(dx, dy):
            open("<g transform=\"translate(\(n(dx)),\(n(dy)))\">", into: &out)
        case .scroll:
            // A layer without an offset draws it as a no-op, as the painter does.
            if offset != .zero {
                open("<g transform=\"translate(\(n(offset.x)),\(n(offset.y)))\">", into: &out)
            }
        case let .scale(sx, sy):
            open("<g transform=\"scale(\(n(sx)),\(n(sy)))\">", into: &out)
        case .clip(let r):
            clipCount += 1
            let r = normalized(r)
            out +=
                "<clipPath id=\"clip\(clipCount)\"><rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\"/></clipPath>\n"
            open("<g clip-path=\"url(#clip\(clipCount))\">", into: &out)
        case .setFill(let c):
            state.fill = c
        case let .setStroke(c, width):
            state.stroke = c
            state.lineWidth = width
        case .setAlpha(let a):
            state.alpha = min(max(a, 0), 1)
        case .fillRect(let r):
            fillRect(r, state.fill, into: &out)
        case let .fillRoundRect(r, radius):
            let r = normalized(r)
            // Like canvas roundRect: the radius never exceeds half the shorter side.
            let rr = min(max(radius, 0), r.width / 2, r.height / 2)
            out +=
                "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" rx=\"\(n(rr))\" ry=\"\(n(rr))\"\(fill)/>\n"
        case let .fillCircle(c, radius):
            out += "<circle cx=\"\(n(c.x))\" cy=\"\(n(c.y))\" r=\"\(n(abs(radius)))\"\(fill)/>\n"
        case let .line(x0, y0, x1, y1):
            line(x0, y0, x1, y1, into: &out)
        case .lineRun(let run):
            for (x0, y0, x1, y1) in run.lines { line(x0, y0, x1, y1, into: &out) }
        case .gradedRun(let run):
            // Each mark in its grade's fill; the state's fill stays as it was, as in the painter.
            for (rect, color) in run.marks(offset: offset.x + state.shift) { fillRect(rect, color, into: &out) }
        case .tween(let tween):
            paint(.save, into: &out)
            let t = tween.state(at: time), c = tween.scale?.center ?? .zero
            var transform = "translate(\(n(t.dx)),\(n(t.dy)))"
            if tween.scale != nil {
                transform += " translate(\(n(c.x)),\(n(c.y))) scale(\(n(t.scale))) translate(\(n(-c.x)),\(n(-c.y)))"
            }
            open("<g transform=\"\(transform)\">", into: &out)
            state.shift += t.dx
            state.alpha *= t.alpha
        case .pulse(let pulse):
            guard let disc = pulse.disc(at: time) else { break }
            let fill = paint("fill", pulse.fill, alpha: min(max(disc.alpha, 0), 1))
            out +=
                "<circle cx=\"\(n(pulse.center.x))\" cy=\"\(n(pulse.center.y))\" r=\"\(n(abs(disc.radius)))\"\(fill)/>\n"
        case .fillPolygon(let points):
            let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
            out += "<polygon points=\"\(list)\"\(fill)/>\n"
        case let .text(s, x, y, size, align, baseline, weight):
            out +=
                "<text x=\"\(n(x))\" y=\"\(n(y))\" font-family=\"\(SVGRenderer.fontFamily)\" font-size=\"\(n(size))\""
            if weight == .bold { out += " font-weight=\"bold\"" }
            out += " text-anchor=\"\(anchor(align))\" dominant-baseline=\"\(dominantBaseline(baseline))\"\(fill)>"
            out += escaped(s) + "</text>\n"
        case .numberRun(let run):
            // Each number as the `text` op it stands for.
            for (s, x, y) in run.texts {
                paint(
                    .text(s, x: x, y: y, size: run.size, align: run.align, baseline: run.baseline, weight: run.weight),
                    into: &out)
            }
        case .owner:
            // An SVG has no viewer to leave out: every client's ops are drawn.
            break
        }
    }

    private mutating func open(_ tag: String, into out: inout String) {
        out += tag + "\n"
        state.openGroups += 1
    }

    private mutating func restore(into out: inout String) {
        // An unmatched restore does nothing, as on a canvas.
        guard let previous = saved.popLast() else { return }
        close(state.openGroups, into: &out)
        state = previous
    }

    private func close(_ count: Int, into out: inout String) {
        for _ in 0..<count { out += "</g>\n" }
    }

    private func fillRect(_ r: Rect, _ color: Color, into out: inout String) {
        let r = normalized(r)
        out +=
            "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\"\(paint("fill", color))/>\n"
    }

    private func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, into out: inout String) {
        out += "<line x1=\"\(n(x0))\" y1=\"\(n(y0))\" x2=\"\(n(x1))\" y2=\"\(n(y1))\"\(stroke)/>\n"
    }

    private var fill: String { paint("fill", state.fill) }
    private var stroke: String { paint("stroke", state.stroke) + " stroke-width=\"\(n(state.lineWidth))\"" }

    /// `alpha`: a factor of the op's own (a pulse's fade) on top of the colour's and the state's.
    private func paint(_ attribute: String, _ c: Color, alpha: Double = 1) -> String {
        let hex = [c.r, c.g, c.b].map { b in
            let s = String(b, radix: 16)
            return b < 16 ? "0" + s : s
        }.joined()
        var s = " \(attribute)=\"#\(hex)\""
        let opacity = Double(c.a) / 255 * state.alpha * alpha
        if opacity < 1 { s += " \(attribute)-opacity=\"\(SVGRenderer.num(opacity, decimals: 3))\"" }
        return s
    }

    /// Canvas accepts negative sizes (drawing leftwards/upwards); SVG does not.
    private func normalized(_ r: Rect) -> Rect {
        Rect(x: min(r.x, r.x + r.width), y: min(r.y, r.y + r.height), width: abs(r.width), height: abs(r.height))
    }

    private func n(_ v: Double) -> String { SVGRenderer.num(v) }

    private func anchor(_ a: TextAlign) -> String {
        switch a {
        case .left: return "start"
        case .center: return "middle"
        case .right: return "end"
        }
    }

    /// Canvas baselines: top = top of the em box, middle = its centre.
    private func dominantBaseline(_ b: TextBaseline) -> String {
        switch b {
        case .top: return "text-before-edge"
        case .middle: return "central"
        case .alphabetic: return "alphabetic"
        }
    }

    private func escaped(_ s: String) -> String { SVGRenderer.escaped(s) }
}

extension SVGRenderer {
    /// `s` as SVG text or an attribute value (in double quotes).
    static func escaped(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // XML 1.0 has no place for other C0 controls, even escaped.
            case _ where ch.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" }: out += "\u{FFFD}"
            default: out.append(ch)
            }
        }
        return out
    }
}
