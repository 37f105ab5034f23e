import ScrollCore

/// What the page paints from one layer's ops at room time `time` with the layer at `offset`: its
/// filled shapes and texts in scene points, with the fill and alpha each is drawn with. Transforms
/// are applied as Public/js/painter.js applies them (translate, scale, scroll, lens, tween;
/// setAlpha sets the alpha, a value outside 0…1 ignored as canvas ignores it; a tween's fade
/// multiplies it), so a test can ask where a tile is at any time however the drawing says it:
/// frame by frame, or once with tweens.
struct PaintedShapes {
    struct Tile { var rect: Rect; var alpha: Double }
    struct Label { var text: String; var x, y, size, alpha: Double }
    /// Any filled shape: its kind, its points (a rectangle's two corners, a circle's centre and the
    /// point a radius to its right, a polygon's points), its fill and alpha.
    struct Shape: Equatable {
        var kind: String
        var points: [Point]
        var fill: Color
        var alpha: Double
    }
    var tiles: [Tile] = []
    var shapes: [Shape] = []
    /// Filled rectangles.
    var rects: [Rect] = []
    var labels: [Label] = []

    /// The filled rectangles of `list` painted at `time`, the layer not moved.
    static func rects(_ list: DisplayList, time: Double) throws -> [Rect] {
        try PaintedShapes(list, offset: .zero, time: time).rects
    }

    init(_ list: DisplayList, offset: Point, time: Double) throws {
        try PaintState.walk(list.bytes, offset: offset, time: time) { op, state in
            func shape(_ kind: String, _ points: [Point]) {
                shapes.append(Shape(kind: kind, points: points.map(state.map), fill: state.fill, alpha: state.alpha))
            }
            switch op {
            case let .fillRoundRect(r, _):
                tiles.append(Tile(rect: state.map(r), alpha: state.alpha))
                shape("roundRect", [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.maxY)])
            case .fillRect(let r):
                rects.append(state.map(r))
                shape("rect", [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.maxY)])
            case let .fillCircle(c, radius): shape("circle", [c, Point(x: c.x + radius, y: c.y)])
            case .fillPolygon(let points): shape("polygon", points)
            case let .text(s, x, y, size, _, _, _):
                let at = state.map(Point(x: x, y: y))
                labels.append(Label(text: s, x: at.x, y: at.y, size: state.sy * size, alpha: state.alpha))
            default: break
            }
        }
    }
}

/// The canvas state painter.js paints an op in: where a point lands (p ↦ (sx·p.x + tx, sy·p.y +
/// ty)), the alpha, the fill and the line width.
struct PaintState {
    var sx = 1.0, sy = 1.0, tx = 0.0, ty = 0.0
    var alpha = 1.0
    var fill = Color(0, 0, 0)
    var lineWidth = 1.0
    /// The tweens' horizontal moves, which lenses see (painter.js's `shift`).
    var shift = 0.0

    /// No transform: ops land where they say.
    var isIdentity: Bool { sx == 1 && sy == 1 && tx == 0 && ty == 0 }
    func map(_ p: Point) -> Point { Point(x: sx * p.x + tx, y: sy * p.y + ty) }
    func map(_ r: Rect) -> Rect {
        Rect(x: sx * r.x + tx, y: sy * r.y + ty, width: sx * r.width, height: sy * r.height)
    }
    mutating func translate(_ dx: Double, _ dy: Double) { tx += sx * dx; ty += sy * dy }
    mutating func scale(_ s: Double, about c: Point, down: Double = 0) {
        translate(c.x, c.y + down)
        sx *= s; sy *= s
        translate(-c.x, -c.y)
    }

    /// Reads `ops` as painter.js paints them at room time `time` with the layer at `offset`: the
    /// state ops (save, restore, translate, scale, scroll, lens, tween, set alpha, fill and stroke)
    /// change the state, and every op is handed to `visit` with the state it is painted in (the
    /// state ops after they applied).
    static func walk(_ ops: [UInt8], offset: Point, time: Double, _ visit: (DecodedOp, PaintState) -> Void) throws {
        var state = PaintState()
        var stack: [PaintState] = []
        for op in try DisplayListDecoder.decode(ops) {
            switch op {
            case .save: stack.append(state)
            case .restore: if let top = stack.popLast() { state = top }
            case let .translate(dx, dy): state.translate(dx, dy)
            case let .scale(x, y): (state.sx, state.sy) = (state.sx * x, state.sy * y)
            case .scroll: state.translate(offset.x, offset.y)
            // Canvas ignores an alpha outside 0…1.
            case .setAlpha(let a): if (0...1).contains(a) { state.alpha = a }
            case .setFill(let c): state.fill = c
            case let .setStroke(_, width): state.lineWidth = width
            case .lens(let lens):
                stack.append(state)
                let t = lens.transform(offset: offset.x + state.shift)
                state.scale(t.scale, about: lens.center, down: t.dy)
            case .tween(let tween):
                stack.append(state)
                let t = tween.state(at: time)
                state.translate(t.dx, t.dy)
                state.shift += t.dx
                if let s = tween.scale { state.scale(t.scale, about: s.center) }
                state.alpha *= t.alpha
            default: break
            }
            visit(op, state)
        }
    }
}
