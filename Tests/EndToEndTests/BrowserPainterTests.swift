import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Public/js/painter.js must read every op exactly as DisplayList.swift writes it: a frame
/// holding every op is painted onto a recording 2D context in the real browser, and the
/// calls are compared with what each decoded op means (docs/PROTOCOL.md, "Display list").
@Suite(.serialized) struct BrowserPainterTests {
    static let font = #""DejaVu Sans", system-ui, sans-serif"#

    /// Every op once (values exact in float32 and printed alike by Swift and JS), plus an
    /// unmatched save that the painter must close.
    static func layer() -> DisplayList {
        var l = DisplayList()
        l.save(); l.translate(1, 2.5); l.scale(2, 0.5); l.clip(Rect(x: 0, y: 1, width: 20, height: 30))
        l.setFill(Color(1, 2, 3, 255)); l.setStroke(Color(4, 5, 6, 0), width: 1.5); l.setAlpha(0.25)
        l.fillRect(Rect(x: 1, y: 2, width: 3, height: 4)); l.line(0, 1, 2, 3)
        l.text("72.5 kg", x: 5, y: 6, size: 17, align: .center, baseline: .top, weight: .bold)
        l.text("9", x: 7, y: 8, size: 12, align: .right, baseline: .alphabetic, weight: .regular)
        l.fillRoundRect(Rect(x: 0, y: 0, width: 4, height: 4), radius: 1)
        l.fillCircle(center: Point(x: 1, y: 1), radius: 2)
        l.fillPolygon([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1)])
        l.save(); l.scroll(); l.line(4, 0, 4, 5); l.restore()
        l.lineRun(0.5, 1, 0.5, 6.25, dx: 10, dy: 0.5, count: 12, skipEvery: 5, skipPhase: 3)
        l.fillPolygonSmall(
            center: Point(x: 10, y: 20), unit: 0.5, points: [(x: -4, y: 6), (x: 127, y: -128), (x: 0, y: 1)])
        l.restore()
        l.save()  // left open on purpose
        return l
    }

    /// The canvas calls each op stands for, from the Swift decoder; `offset` is the layer's.
    static func expectedCalls(_ ops: [DecodedOp], offset: Point) -> [String] {
        func n(_ v: Double) -> String { JSONValue.format(v) }
        func rgba(_ c: Color) -> String { "rgba(\(c.r),\(c.g),\(c.b),\(n(Double(c.a) / 255)))" }
        let align = ["left", "center", "right"], baseline = ["top", "middle", "alphabetic"]
        return ops.flatMap { op -> [String] in
            switch op {
            case .save: return ["save()"]
            case .restore: return ["restore()"]
            case let .translate(x, y): return ["translate(\(n(x)),\(n(y)))"]
            case let .scale(x, y): return ["scale(\(n(x)),\(n(y)))"]
            case let .clip(r):
                return ["beginPath()", "rect(\(n(r.x)),\(n(r.y)),\(n(r.width)),\(n(r.height)))", "clip()"]
            case let .setFill(c): return ["fillStyle=\(rgba(c))"]
            case let .setStroke(c, w): return ["strokeStyle=\(rgba(c))", "lineWidth=\(n(w))"]
            case let .setAlpha(a): return ["globalAlpha=\(n(a))"]
            case let .fillRect(r): return ["fillRect(\(n(r.x)),\(n(r.y)),\(n(r.width)),\(n(r.height)))"]
            case let .fillRoundRect(r, radius):
                return [
                    "beginPath()", "roundRect(\(n(r.x)),\(n(r.y)),\(n(r.width)),\(n(r.height)),\(n(radius)))", "fill()",
                ]
            case let .fillCircle(c, r):
                return ["beginPath()", "arc(\(n(c.x)),\(n(c.y)),\(n(r)),0,\(2 * Double.pi))", "fill()"]
            case let .line(x0, y0, x1, y1):
                return ["beginPath()", "moveTo(\(n(x0)),\(n(y0)))", "lineTo(\(n(x1)),\(n(y1)))", "stroke()"]
            case let .fillPolygon(pts):
                return ["beginPath()"]
                    + pts.enumerated().map { i, p in "\(i == 0 ? "moveTo" : "lineTo")(\(n(p.x)),\(n(p.y)))" }
                    + ["closePath()", "fill()"]
            case let .text(s, x, y, size, a, b, w):
                return [
                    "textAlign=\(align[Int(a.rawValue)])", "textBaseline=\(baseline[Int(b.rawValue)])",
                    "font=\(w == .bold ? "bold " : "")\(n(size))px \(font)", "fillText(\(s),\(n(x)),\(n(y)))",
                ]
            case .owner: return []  // no call: it decides whether what follows is painted
            case .scroll: return ["translate(\(n(offset.x)),\(n(offset.y)))"]
            case .lineRun(let run):
                return ["beginPath()"]
                    + run.lines.flatMap { x0, y0, x1, y1 in ["moveTo(\(n(x0)),\(n(y0)))", "lineTo(\(n(x1)),\(n(y1)))"] }
                    + ["stroke()"]
            }
        }
    }

    @Test(
        "every display-list op is painted as the Swift side wrote it; open saves are closed; a moved layer scrolls by its new offset"
    )
    func painterMatchesEncoder() throws {
        var encoder = FrameEncoder()
        let list = Self.layer()
        let first = encoder.encode([Layer(id: 7, list: list, offset: Point(x: -37.5, y: 0.25))], time: 1)
        let moved = Point(x: -12.25, y: 3)
        let second = encoder.encode([Layer(id: 7, list: list, offset: moved)], time: 2)
        // The second frame's delta is a move: the same ops, a new offset, no ops resent.
        #expect(second.delta.count == FrameFormat.headerSize + 11 && second.delta[FrameFormat.headerSize + 2] == 2)
        let expected =
            ["setTransform(1,0,0,1,0,0)", "clearRect(0,0,10,10)", "setTransform(1,0,0,1,0,0)", "save()"]
            + Self.expectedCalls(try DisplayListDecoder.decode(list.bytes), offset: moved)
            + ["restore()", "restore()"]

        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL)
        let calls =
            try b.evaluate(
                """
                (async () => {
                  const m = await import('/js/painter.js');
                  const log = [];
                  const ctx = new Proxy({ canvas: { width: 10, height: 10 } }, {
                    get: (t, k) => k === 'canvas' ? t.canvas : (...a) => { log.push(`${String(k)}(${a.join(',')})`); },
                    set: (t, k, v) => { log.push(`${String(k)}=${v}`); return true; },
                  });
                  const decode = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
                  const store = new m.LayerStore();
                  if (!store.apply(decode('\(Data(first.full).base64EncodedString())'))) return ['frame rejected'];
                  if (!store.apply(decode('\(Data(second.delta).base64EncodedString())'))) return ['move rejected'];
                  m.paint(ctx, store, 1, 1);
                  return log;
                })()
                """) as? [Any]
        let got = (calls ?? []).compactMap { $0 as? String }
        #expect(got == expected)
    }
}
