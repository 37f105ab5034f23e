import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Public/js/painter.js must read every op exactly as DisplayList.swift writes it: a frame with
/// one layer per `DisplayOp` (each op once, then a fill the painter reaches only if it read the op
/// whole) is painted onto a recording 2D context in the real browser, and the calls are compared
/// with what each decoded op means (docs/PROTOCOL.md, "Display list"). An op the painter does not
/// know stops its layer, so a new op without a case in painter.js fails here.
@Suite(.serialized) struct BrowserPainterTests {
    static let font = #""DejaVu Sans", system-ui, sans-serif"#

    /// A use of `op` (values exact in float32 and printed alike by Swift and JS). No default: a new
    /// op must be given a use, and so is painted by the test.
    static func sample(_ op: DisplayOp, into l: inout DisplayList) {
        switch op {
        case .save: l.save()  // left open on purpose: the painter must close it
        case .restore: l.save(); l.translate(3, 4); l.restore()
        case .translate: l.translate(1, 2.5)
        case .clipRect: l.clip(Rect(x: 0, y: 1, width: 20, height: 30))
        case .setFill: l.setFill(Color(1, 2, 3, 255))
        case .setStroke: l.setStroke(Color(4, 5, 6, 0), width: 1.5)
        case .fillRect: l.fillRect(Rect(x: 1, y: 2, width: 3, height: 4))
        case .line: l.line(0, 1, 2, 3)
        case .text:
            l.text("72.5 kg", x: 5, y: 6, size: 17, align: .center, baseline: .top, weight: .bold)
            l.text("9", x: 7, y: 8, size: 12, align: .right, baseline: .alphabetic, weight: .regular)
        case .fillRoundRect: l.fillRoundRect(Rect(x: 0, y: 0, width: 4, height: 4), radius: 1)
        case .fillCircle: l.fillCircle(center: Point(x: 1, y: 1), radius: 2)
        case .fillPolygon: l.fillPolygon([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1)])
        case .scale: l.scale(2, 0.5)
        case .setAlpha: l.setAlpha(0.25)
        case .owner: l.owner("c9"); l.fillRect(Rect(x: 5, y: 5, width: 1, height: 1)); l.owner("")
        case .scroll: l.save(); l.scroll(); l.line(4, 0, 4, 5); l.restore()
        case .lineRun: l.lineRun(0.5, 1, 0.5, 6.25, dx: 10, dy: 0.5, count: 12, skipEvery: 5, skipPhase: 3)
        case .gradedRun:
            // Shown at −12.25 (the moved layer's offset), marks 1…3 are 4, 0 and 4 pt from the focus.
            l.gradedRun(
                GradedRun(
                    x0: 1, y: 5, dx: 4, count: 5, focus: -3.25,
                    grades: [
                        GradedRun.Grade(below: 2, width: 2, height: 6, fill: Color(10, 20, 30)),
                        GradedRun.Grade(below: 5, width: 1, height: 4, fill: Color(40, 50, 60, 51)),
                    ]))
        case .lens:
            // Shown at −12.25 the centre is 4 pt from the focus: half way from scale 2 to 1, 2 pt down.
            lensed(&l)
        case .pulse:
            // Painted at the frame's time, 2: the start at 1.75 is half way through its 0.5 s.
            l.pulse(
                Pulse(
                    center: Point(x: 3, y: 4), radius: (4, 8), alpha: (1, 0), duration: 0.5, fill: Color(70, 80, 90),
                    starts: [1.5, 1.75, 2.5]))
        case .tween:
            // Painted at 2, half way through its 0.5 s along ease-in-out: moved (−4, 2) and scaled
            // 1.5 about (6, 7), its alpha half what it was (0.5 × 0.5); the lens inside sees the move.
            l.setAlpha(0.5)
            l.tween(
                Tween(
                    start: 1.75, duration: 0.5, curve: .easeInOut,
                    move: Tween.Move(from: Point(x: -8, y: 0), to: Point(x: 0, y: 4)),
                    scale: Tween.Scale(center: Point(x: 6, y: 7), from: 1, to: 2), fade: Tween.Fade(from: 0, to: 1)))
            lensed(&l)
            l.restore()
        case .numberRun:
            // 998, 999, then round to 9, 10; then a run that does not wrap, counting down through 0.
            l.numberRun(
                NumberRun(
                    x0: 0.5, y0: 6, dx: 100, dy: 0.25, size: 17, align: .center, baseline: .top, count: 4, first: 998,
                    wrap: 9...999))
            l.numberRun(
                NumberRun(
                    x0: 4, y0: 8, dx: 0, dy: -12, size: 12, align: .right, weight: .bold, count: 3, first: 2, step: -2))
        case .fillPolygonSmall:
            l.fillPolygonSmall(
                center: Point(x: 10, y: 20), unit: 0.5, points: [(x: -4, y: 6), (x: 127, y: -128), (x: 0, y: 1)])
        }
    }

    /// A square under a lens (scale 2 at its focus, 1 and 4 pt down 8 pt away), closed.
    static func lensed(_ l: inout DisplayList) {
        l.lens(
            Lens(
                center: Point(x: 20, y: 4), focus: 3.75,
                knots: [Lens.Knot(distance: 0, scale: 2), Lens.Knot(distance: 8, scale: 1, dy: 4)]))
        l.fillRect(Rect(x: 19, y: 3, width: 2, height: 2))
        l.restore()
    }

    /// `op`'s layer: its use, then a fill that shows the painter read past it.
    static func layer(_ op: DisplayOp) -> DisplayList {
        var l = DisplayList()
        sample(op, into: &l)
        l.fillRect(Rect(x: 8, y: 9, width: 1, height: 1))
        return l
    }

    /// The saves `ops` leaves open (a restore without a save is ignored, as the painter does).
    static func openSaves(_ ops: [DecodedOp]) -> Int {
        ops.reduce(0) { depth, op in
            switch op {
            case .save, .lens, .tween: depth + 1
            case .restore: max(0, depth - 1)
            default: depth
            }
        }
    }

    /// The canvas calls each op stands for, from the Swift decoder; `offset` is the layer's,
    /// `time` the room time painted at.
    static func expectedCalls(_ ops: [DecodedOp], offset: Point, time: Double) -> [String] {
        func n(_ v: Double) -> String { JSONValue.format(v) }
        func rgba(_ c: Color) -> String { "rgba(\(c.r),\(c.g),\(c.b),\(n(Double(c.a) / 255)))" }
        let align = ["left", "center", "right"], baseline = ["top", "middle", "alphabetic"]
        // The tweens' horizontal moves (lenses and graded runs see them) and alpha, per save.
        var shift = 0.0, alpha = 1.0
        var saved: [(Double, Double)] = []
        return ops.flatMap { op -> [String] in
            switch op {
            case .save:
                saved.append((shift, alpha))
                return ["save()"]
            case .restore:
                if let last = saved.popLast() { (shift, alpha) = last }
                return ["restore()"]
            case .tween(let tween):
                saved.append((shift, alpha))
                let t = tween.state(at: time)
                var calls = ["save()"]
                if tween.move != nil { calls.append("translate(\(n(t.dx)),\(n(t.dy)))") }
                shift += t.dx
                if let c = tween.scale?.center {
                    calls += [
                        "translate(\(n(c.x)),\(n(c.y)))", "scale(\(n(t.scale)),\(n(t.scale)))",
                        "translate(\(n(-c.x)),\(n(-c.y)))",
                    ]
                }
                if tween.fade != nil {
                    alpha *= t.alpha
                    calls.append("globalAlpha=\(n(alpha))")
                }
                return calls
            case let .translate(x, y): return ["translate(\(n(x)),\(n(y)))"]
            case let .scale(x, y): return ["scale(\(n(x)),\(n(y)))"]
            case let .clip(r):
                return ["beginPath()", "rect(\(n(r.x)),\(n(r.y)),\(n(r.width)),\(n(r.height)))", "clip()"]
            case let .setFill(c): return ["fillStyle=\(rgba(c))"]
            case let .setStroke(c, w): return ["strokeStyle=\(rgba(c))", "lineWidth=\(n(w))"]
            case let .setAlpha(a):
                alpha = a
                return ["globalAlpha=\(n(a))"]
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
            case .numberRun(let run):
                // The style once, then each number.
                return [
                    "textAlign=\(align[Int(run.align.rawValue)])",
                    "textBaseline=\(baseline[Int(run.baseline.rawValue)])",
                    "font=\(run.weight == .bold ? "bold " : "")\(n(run.size))px \(font)",
                ] + run.texts.map { s, x, y in "fillText(\(s),\(n(x)),\(n(y)))" }
            case .owner: return []  // no call: it decides whether what follows is painted
            case .scroll: return ["translate(\(n(offset.x)),\(n(offset.y)))"]
            case .lineRun(let run):
                return ["beginPath()"]
                    + run.lines.flatMap { x0, y0, x1, y1 in ["moveTo(\(n(x0)),\(n(y0)))", "lineTo(\(n(x1)),\(n(y1)))"] }
                    + ["stroke()"]
            case .gradedRun(let run):
                return ["save()"]
                    + run.marks(offset: offset.x + shift).flatMap { r, c in
                        ["fillStyle=\(rgba(c))", "fillRect(\(n(r.x)),\(n(r.y)),\(n(r.width)),\(n(r.height)))"]
                    } + ["restore()"]
            case .lens(let lens):
                saved.append((shift, alpha))
                let t = lens.transform(offset: offset.x + shift), c = lens.center
                return [
                    "save()", "translate(\(n(c.x)),\(n(c.y + t.dy)))", "scale(\(n(t.scale)),\(n(t.scale)))",
                    "translate(\(n(-c.x)),\(n(-c.y)))",
                ]
            case .pulse(let pulse):
                guard let disc = pulse.disc(at: time) else { return [] }
                let c = pulse.fill
                return [
                    "save()", "fillStyle=rgba(\(c.r),\(c.g),\(c.b),\(n(Double(c.a) / 255 * disc.alpha)))",
                    "beginPath()",
                    "arc(\(n(pulse.center.x)),\(n(pulse.center.y)),\(n(disc.radius)),0,\(2 * Double.pi))", "fill()",
                    "restore()",
                ]
            }
        }
    }

    @Test(
        "every DisplayOp is painted as the Swift side wrote it; open saves are closed; a moved layer scrolls by its new offset"
    )
    func painterMatchesEncoder() throws {
        let b = try Chromium()
        defer { b.close() }
        try paintsAsEncoded(b)
    }

    @Test("Firefox: every DisplayOp is painted as the Swift side wrote it, as in Chromium")
    func painterMatchesEncoderInFirefox() throws {
        let firefox = try Firefox()
        defer { firefox.close() }
        try paintsAsEncoded(try firefox.newPage())
    }

    /// Paints one layer per op in page `b` onto a recording context and compares the calls with
    /// what each decoded op means.
    func paintsAsEncoded(_ b: any BrowserPage) throws {
        let ops = DisplayOp.allCases
        let lists = ops.map(Self.layer)
        var encoder = FrameEncoder()
        let first = encoder.encode(
            lists.enumerated().map {
                Layer(id: UInt16($0.offset + 1), list: $0.element, offset: Point(x: -37.5, y: 0.25))
            },
            time: 1)
        let moved = Point(x: -12.25, y: 3)
        let second = encoder.encode(
            lists.enumerated().map { Layer(id: UInt16($0.offset + 1), list: $0.element, offset: moved) }, time: 2)
        // The second frame's delta moves every layer: the same ops, a new offset, no ops resent.
        #expect(second.delta.count == FrameFormat.headerSize + 11 * ops.count)
        #expect(second.delta[FrameFormat.headerSize + 2] == 2)
        let expected = try lists.map { list in
            let decoded = try DisplayListDecoder.decode(list.bytes)
            return ["setTransform(1,0,0,1,0,0)", "save()"] + Self.expectedCalls(decoded, offset: moved, time: 2)
                + Array(repeating: "restore()", count: Self.openSaves(decoded) + 1)
        }

        let server = try ServerProcess()
        try b.navigate(server.httpURL)
        let calls =
            try b.evaluate(
                """
                (async () => {
                  const m = await import('/js/painter.js');
                  const log = [];
                  // globalAlpha reads back what was set (a tween multiplies it); any other name is a call.
                  const ctx = new Proxy({ canvas: { width: 10, height: 10 }, globalAlpha: 1 }, {
                    get: (t, k) => k === 'canvas' || k === 'globalAlpha' ? t[k] : (...a) => { log.push(`${String(k)}(${a.join(',')})`); },
                    set: (t, k, v) => { t[k] = v; log.push(`${String(k)}=${v}`); return true; },
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
        #expect(Array(got.prefix(2)) == ["setTransform(1,0,0,1,0,0)", "clearRect(0,0,10,10)"], "\(got)")
        // Each layer starts with its transform: split there, and compare op by op.
        var layers: [[String]] = []
        for call in got.dropFirst(2) {
            if call == "setTransform(1,0,0,1,0,0)" { layers.append([]) }
            if !layers.isEmpty { layers[layers.count - 1].append(call) }
        }
        #expect(layers.count == ops.count, "\(got)")
        for (i, op) in ops.enumerated() {
            #expect(i < layers.count && layers[i] == expected[i], "op \(op) (0x\(String(op.rawValue, radix: 16)))")
        }
        // The numbers themselves: 998, 999 wrapped round to 9, 10; and 2, 0, −2, not wrapped.
        let run = try #require(ops.firstIndex(of: .numberRun))
        let numbers = run < layers.count ? layers[run].filter { $0.hasPrefix("fillText") } : []
        #expect(
            numbers == [
                "fillText(998,0.5,6)", "fillText(999,100.5,6.25)", "fillText(9,200.5,6.5)", "fillText(10,300.5,6.75)",
                "fillText(2,4,8)", "fillText(0,4,-4)", "fillText(-2,4,-16)",
            ])
    }

    @Test("painter.js has a case for each DisplayOp code and for no other")
    func painterCasesAreTheOps() throws {
        let source = try String(
            contentsOf: PackagePaths.publicDirectory.appendingPathComponent("js/painter.js"), encoding: .utf8)
        let cases = source.matches(of: /case 0x([0-9A-Fa-f]{2}):/).compactMap { UInt8($0.1, radix: 16) }
        #expect(cases.count == Set(cases).count, "a code twice: \(cases)")
        #expect(Set(cases) == Set(DisplayOp.allCases.map(\.rawValue)))
    }
}
