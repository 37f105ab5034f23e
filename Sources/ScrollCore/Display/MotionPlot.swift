import Foundation

/// A replay's motion drawn for a bug report (`widget-replay --plot`): for each widget that moved,
/// a panel with its reading (offset, or the number it shows) over scene time and, under it, its
/// velocity, all on one time axis; each of the replay's events marked on its widget's curve at
/// its time. A plain SVG: numbers as `SVGRenderer` writes them, deterministic.
///
/// Elements tests and tools can find: `path.position` and `path.velocity` (one each per widget
/// that moved, `data-widget` naming it) and one element of class `event` per event (with
/// `data-widget`, `data-type`, `data-t` and the event's JSON as its `<title>`).
public enum MotionPlot {
    static let width = 880.0
    static let left = 84.0
    static let right = 24.0
    static let positionHeight = 140.0
    static let velocityHeight = 80.0
    static let panelHeight = 300.0
    static let stripHeight = 70.0
    static let top = 84.0
    static let positionColor = "#1c7ed6"
    static let velocityColor = "#e8590c"
    static let ink = "#212529"
    static let muted = "#868e96"
    static let grid = "#e9ecef"

    /// `series` that did not move are left out; a widget with events but no motion gets a strip
    /// with its events only. `duration` is the replay's end (s); `title` heads the picture.
    public static func render(
        _ series: [MotionRecording.Series], events: [SceneEvent], duration: Double, title: String
    ) -> String {
        let moving = series.filter(\.moved)
        let still = events.map(\.widget).reduce(into: [String]()) { ids, id in
            if !moving.contains(where: { $0.widget == id }) && !ids.contains(id) { ids.append(id) }
        }
        let end = duration > 0 ? duration : 1
        let plotWidth = width - left - right
        let x = { (t: Double) in left + min(max(t / end, 0), 1) * plotWidth }
        let height = top + Double(moving.count) * panelHeight + Double(still.count) * stripHeight + 16

        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\""
        out += " viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"\(SVGRenderer.fontFamily)\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        out += text(title, x: 16, y: 26, size: 15, bold: true)
        out += text(
            "Each widget that moved: its reading (blue) and velocity (orange) over scene time, its events on the curve.",
            x: 16, y: 46, size: 11, color: muted)
        out += legend(y: 64)

        var y = top
        for s in moving {
            let mine = events.filter { $0.widget == s.widget }
            out += panel(s, events: mine, top: y, end: end, x: x)
            y += panelHeight
        }
        for id in still {
            out += strip(id, events: events.filter { $0.widget == id }, top: y, end: end, x: x)
            y += stripHeight
        }
        return out + "</svg>\n"
    }

    // MARK: - Panels

    private static func panel(
        _ s: MotionRecording.Series, events: [SceneEvent], top: Double, end: Double, x: (Double) -> Double
    ) -> String {
        let id = SVGRenderer.escaped(s.widget)
        var out = "<g class=\"panel\" data-widget=\"\(id)\">\n"
        out += text(
            "\(s.widget) — \(s.quantity)\(s.unit.isEmpty ? "" : " (\(s.unit))")", x: 16, y: top + 14, size: 13,
            bold: true)
        let positionTop = top + 24, velocityTop = positionTop + positionHeight + 22
        let position = Scale(s.points.map(\.position), top: positionTop, height: positionHeight)
        let velocity = Scale(s.points.map(\.velocity) + [0], top: velocityTop, height: velocityHeight)
        out += axes(position, end: end, x: x, timeLabels: false)
        out += text(
            "velocity (\(s.unit.isEmpty ? "per s" : "\(s.unit)/s"))", x: left, y: velocityTop - 5, size: 10,
            color: muted)
        out += axes(velocity, end: end, x: x, timeLabels: true)
        out += line(x(0), velocity.y(0), x(end), velocity.y(0), color: muted, width: 0.75)
        out += path("position", s.widget, s.points.map { (x($0.time), position.y($0.position)) }, positionColor)
        out += path("velocity", s.widget, s.points.map { (x($0.time), velocity.y($0.velocity)) }, velocityColor)
        var labels = Labels(top: positionTop)
        for e in events {
            out += marker(
                e, at: x(e.time), position.y(s.position(at: e.time)), guide: (velocityTop, velocityHeight),
                labels: &labels)
        }
        return out + "</g>\n"
    }

    /// A widget with events and no motion: its events along a line.
    private static func strip(
        _ widget: String, events: [SceneEvent], top: Double, end: Double, x: (Double) -> Double
    ) -> String {
        var out = "<g class=\"panel\" data-widget=\"\(SVGRenderer.escaped(widget))\">\n"
        out += text("\(widget) — events", x: 16, y: top + 14, size: 13, bold: true)
        let y = top + 40
        out += line(x(0), y, x(end), y, color: grid, width: 1)
        var labels = Labels(top: top + 10)
        for e in events { out += marker(e, at: x(e.time), y, guide: nil, labels: &labels) }
        return out + "</g>\n"
    }

    // MARK: - Axes

    /// A value range mapped onto a chart's height, padded so curves clear its edges.
    private struct Scale {
        var low: Double, high: Double
        let top: Double, height: Double

        init(_ values: [Double], top: Double, height: Double) {
            var low = values.min() ?? 0, high = values.max() ?? 0
            if high - low < 1e-9 { low -= 1; high += 1 }
            let pad = (high - low) * 0.06
            self.low = low - pad; self.high = high + pad
            self.top = top; self.height = height
        }

        func y(_ v: Double) -> Double { top + (high - v) / (high - low) * height }
    }

    private static func axes(_ scale: Scale, end: Double, x: (Double) -> Double, timeLabels: Bool) -> String {
        var out = ""
        let bottom = scale.top + scale.height
        for v in ticks(scale.low, scale.high, about: 5) {
            out += line(x(0), scale.y(v), x(end), scale.y(v), color: grid, width: 1)
            out += text(label(v), x: left - 6, y: scale.y(v) + 3.5, size: 10, color: muted, anchor: "end")
        }
        for t in ticks(0, end, about: 8) {
            out += line(x(t), scale.top, x(t), bottom, color: grid, width: 1)
            if timeLabels {
                out += text("\(label(t)) s", x: x(t), y: bottom + 14, size: 10, color: muted, anchor: "middle")
            }
        }
        out +=
            "<rect x=\"\(n(left))\" y=\"\(n(scale.top))\" width=\"\(n(x(end) - left))\" height=\"\(n(scale.height))\""
        return out + " fill=\"none\" stroke=\"#adb5bd\" stroke-width=\"1\"/>\n"
    }

    /// Round values between `low` and `high`, about `count` of them: steps of 1, 2 or 5 × 10ⁿ.
    static func ticks(_ low: Double, _ high: Double, about count: Int) -> [Double] {
        guard high > low, count > 0 else { return [low] }
        let raw = (high - low) / Double(count)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw * 0.999 } ?? 10 * magnitude
        let first = (low / step).rounded(.up)
        return (0...count * 3).map { (first + Double($0)) * step }.filter { $0 <= high + step * 1e-9 }
    }

    /// A tick's label: no more decimals than the value has (to 3), "−" for minus.
    private static func label(_ v: Double) -> String {
        let s = SVGRenderer.num(abs(v) < 1e-9 ? 0 : v, decimals: 3)
        return s.hasPrefix("-") ? "−" + s.dropFirst() : s
    }

    // MARK: - Events

    private static func legend(y: Double) -> String {
        var out = "<g class=\"legend\">\n"
        var x = 16.0
        let entries: [(SceneEvent.Kind, String)] = [
            (.value(0, text: "", final: false), "value while moving"),
            (.value(0, text: "", final: true), "final value"),
            (.moved(0), "tick crossed"), (.haptic(""), "haptic"), (.selected(index: 0, name: ""), "selected, added, …"),
        ]
        for (kind, name) in entries {
            out += shape(kind, at: x + 4, y - 4)
            out += text(name, x: x + 12, y: y, size: 10, color: muted)
            x += 20 + Double(name.count) * 5.6
        }
        return out + "</g>\n"
    }

    /// One event: its shape on the curve, its JSON as a tooltip, and for what settles or is
    /// said (a final value, a selection) its text and a guide down through the velocity chart.
    private static func marker(
        _ e: SceneEvent, at x: Double, _ y: Double, guide: (top: Double, height: Double)?, labels: inout Labels
    ) -> String {
        var out = ""
        let said: String? =
            switch e.kind {
            case let .value(_, text, true): text
            case let .selected(_, name), let .added(_, name), let .deleted(_, name): "\(e.kind.name.rawValue) \(name)"
            case .announcement(let text): text
            default: nil
            }
        if let said {
            if let guide {
                out +=
                    "<line class=\"guide\" x1=\"\(n(x))\" y1=\"\(n(y))\" x2=\"\(n(x))\" y2=\"\(n(guide.top + guide.height))\""
                out += " stroke=\"\(muted)\" stroke-width=\"0.75\" stroke-dasharray=\"3 3\"/>\n"
            }
            // Near the right edge the text goes to the left of the mark.
            let leftwards = x > width - right - 80
            let start = leftwards ? x - 6 - Labels.width(said) : x + 6
            let row = Double(labels.place(from: start, to: start + Labels.width(said)))
            // Marks near the chart's top have their text under them, inside the chart.
            let down = y - 31 < labels.top
            out += text(
                said, x: leftwards ? x - 6 : x + 6, y: down ? y + 16 + 12 * row : y - 7 - 12 * row, size: 10,
                color: ink,
                anchor: leftwards ? "end" : "start")
        }
        let title = "<title>\(SVGRenderer.escaped(e.json.serialized))</title>"
        let data =
            "class=\"event\" data-widget=\"\(SVGRenderer.escaped(e.widget))\" data-type=\"\(e.kind.name.rawValue)\""
            + " data-t=\"\(JSONValue.format(e.time))\""
        return out + "<g \(data)>\(title)\(shape(e.kind, at: x, y))</g>\n"
    }

    private static func shape(_ kind: SceneEvent.Kind, at x: Double, _ y: Double) -> String {
        switch kind {
        case .value(_, _, false):
            return
                "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"2.5\" fill=\"#ffffff\" stroke=\"#495057\" stroke-width=\"1\"/>"
        case .value(_, _, true):
            return "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"4.5\" fill=\"\(ink)\"/>"
        case .moved:
            return
                "<line x1=\"\(n(x))\" y1=\"\(n(y - 5))\" x2=\"\(n(x))\" y2=\"\(n(y + 5))\" stroke=\"#495057\" stroke-width=\"1\"/>"
        case .haptic:
            let points = [(x, y - 3.5), (x + 3.5, y), (x, y + 3.5), (x - 3.5, y)]
            return
                "<polygon points=\"\(points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " "))\" fill=\"\(velocityColor)\"/>"
        case .selected, .added, .deleted, .announcement:
            let points = [(x, y - 5), (x + 4.5, y + 3.5), (x - 4.5, y + 3.5)]
            return
                "<polygon points=\"\(points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " "))\" fill=\"#ae3ec9\"/>"
        }
    }

    /// Where a panel's event labels went: each on the lowest of three rows above its mark where
    /// it overlaps no label before it (the lowest row when none is free).
    private struct Labels {
        /// The top of the chart the marks are on.
        let top: Double
        private var ends = [-Double.infinity, -.infinity, -.infinity]

        init(top: Double) { self.top = top }

        /// About how wide `s` is at 10 px (DejaVu Sans averages 0.58 em a character).
        static func width(_ s: String) -> Double { Double(s.count) * 5.8 }

        mutating func place(from start: Double, to end: Double) -> Int {
            let row = ends.firstIndex { $0 + 4 <= start } ?? 0
            ends[row] = max(ends[row], end)
            return row
        }
    }

    // MARK: - Drawing

    /// A polyline through `points` (pixels), leaving out each point that falls on the one before
    /// it (to 0.1 px): a long replay has many more readings than the picture has pixels.
    private static func path(_ kind: String, _ widget: String, _ points: [(Double, Double)], _ color: String) -> String
    {
        var d = "", last = ""
        for (x, y) in points {
            let point = "\(SVGRenderer.num(x, decimals: 1)),\(SVGRenderer.num(y, decimals: 1))"
            guard point != last else { continue }
            d += (d.isEmpty ? "M" : " L") + point
            last = point
        }
        return "<path class=\"\(kind)\" data-widget=\"\(SVGRenderer.escaped(widget))\" d=\"\(d)\" fill=\"none\""
            + " stroke=\"\(color)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>\n"
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String, width: Double)
        -> String
    {
        "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(color)\" stroke-width=\"\(n(width))\"/>\n"
    }

    private static func text(
        _ s: String, x: Double, y: Double, size: Double, color: String = ink, bold: Bool = false,
        anchor: String = "start"
    ) -> String {
        var out = "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(color)\""
        if bold { out += " font-weight=\"bold\"" }
        if anchor != "start" { out += " text-anchor=\"\(anchor)\"" }
        return out + ">\(SVGRenderer.escaped(s))</text>\n"
    }

    private static func n(_ v: Double) -> String { SVGRenderer.num(v) }
}

extension MotionRecording.Series {
    /// The reading at `time`, between the readings around it (the first before any, the last after).
    func position(at time: Double) -> Double {
        guard let after = points.firstIndex(where: { $0.time > time }) else { return points.last?.position ?? 0 }
        guard after > 0 else { return points[0].position }
        let a = points[after - 1], b = points[after]
        return a.position + (b.position - a.position) * (time - a.time) / (b.time - a.time)
    }
}
