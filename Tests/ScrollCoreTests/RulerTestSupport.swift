@testable import ScrollCore

/// Drives one widget the way the scene would, with virtual time.
struct RulerDriver {
    let ruler: WeightRuler
    var time = 0.0
    var events: [SceneEvent] = []
    let key = PointerKey(client: "a", pointer: 1)

    init(value: Double) {
        ruler = WeightRuler(frame: DemoScene.rulerFrame, value: value)
    }

    var y: Double { DemoScene.rulerFrame.midY }

    mutating func send(_ phase: PointerPhase, x: Double) {
        ruler.advance(to: time, events: &events)
        _ = ruler.pointer(
            PointerInput(phase: phase, key: key, position: Point(x: x, y: y), clientTime: time),
            at: time, events: &events)
    }

    /// Advances virtual time in steps of `dt` (a frame clock at 1/dt Hz).
    mutating func run(for duration: Double, dt: Double = 1.0 / 60) {
        let end = time + duration
        while time < end - 1e-12 {
            time = min(end, time + dt)
            ruler.advance(to: time, events: &events)
        }
    }

    /// A slow drag by `dx` (pointer moves +dx) that holds still 100 ms before lifting:
    /// no momentum, so the ruler only revises to the nearest tick.
    mutating func drag(by dx: Double, from x0: Double = 195, steps: Int = 10) {
        send(.down, x: x0)
        for i in 1...steps {
            time += 0.016
            send(.move, x: x0 + dx * Double(i) / Double(steps))
        }
        time += 0.1
        send(.up, x: x0 + dx)
    }

    var finalValues: [Double] {
        events.compactMap { if case let .value(v, _, true) = $0.kind { return v } else { return nil } }
    }
}

/// Text ops of a display list drawn at `offset` (its layer's): label → screen x.
func labels(_ list: DisplayList, offset: Point = .zero) throws -> [String: Double] {
    var out: [String: Double] = [:]
    for item in try ScreenGeometry(list, offset: offset).texts { out[item.text] = item.x }
    return out
}

/// Where a layer's lines and texts land on screen, as painter.js places them (`PaintState.walk`;
/// the ruler only translates, scrolls, saves and restores).
struct ScreenGeometry {
    struct Line: Hashable { var x0, y0, x1, y1, width: Double }
    struct Text: Hashable { var text: String; var x, y: Double }
    var lines: [Line] = []
    var texts: [Text] = []
    /// Ops other than the above, in screen coordinates where they have any (clip, fills).
    var other: [String] = []

    init(_ list: DisplayList, offset: Point) throws { try self.init(ops: list.bytes, offset: offset) }

    init(ops: [UInt8], offset: Point) throws {
        try PaintState.walk(ops, offset: offset, time: 0) { op, state in
            func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
                let (a, b) = (state.map(Point(x: x0, y: y0)), state.map(Point(x: x1, y: y1)))
                lines.append(Line(x0: a.x, y0: a.y, x1: b.x, y1: b.y, width: state.lineWidth))
            }
            func text(_ s: String, _ x: Double, _ y: Double) {
                let at = state.map(Point(x: x, y: y))
                texts.append(Text(text: s, x: at.x, y: at.y))
            }
            switch op {
            case .save, .restore, .translate, .scroll: break
            case .setStroke, .setFill, .setAlpha, .owner: other.append("\(op)")
            case let .line(x0, y0, x1, y1): line(x0, y0, x1, y1)
            case .lineRun(let run): for (x0, y0, x1, y1) in run.lines { line(x0, y0, x1, y1) }
            case let .text(s, x, y, _, _, _, _): text(s, x, y)
            case .numberRun(let run): for (s, x, y) in run.texts { text(s, x, y) }
            default:
                // Shapes: the ruler draws them (background, pointer) outside its scrolled part.
                precondition(state.isIdentity, "\(op) under a translation")
                other.append("\(op)")
            }
        }
    }
}

extension ScreenGeometry {
    /// What a ruler's layer shows within `frame` (its clip): the lines whose x falls inside it, the
    /// labels that reach into it (a label is under 40 pt wide) and the rest of its ops. A ruler at
    /// rest after a glide keeps the glide's drawing, which reaches further out than a restored
    /// ruler's: the same picture, other bytes.
    static func shown(_ ops: [UInt8], offset: Point, within frame: Rect) throws -> ScreenGeometry {
        var g = try ScreenGeometry(ops: ops, offset: offset)
        g.lines = g.lines.filter { $0.x0 >= frame.minX - 1 && $0.x0 <= frame.maxX + 1 }
        g.texts = g.texts.filter { $0.x >= frame.minX - 20 && $0.x <= frame.maxX + 20 }
        return g
    }

    /// Whether two ruler layers (ops and offset) show the same within `frame`.
    static func sameShown(
        _ a: (ops: [UInt8], offset: Point), _ b: (ops: [UInt8], offset: Point), within frame: Rect
    ) throws -> Bool {
        let x = try shown(a.ops, offset: a.offset, within: frame)
        let y = try shown(b.ops, offset: b.offset, within: frame)
        return Set(x.lines) == Set(y.lines) && Set(x.texts) == Set(y.texts) && x.other == y.other
    }
}
