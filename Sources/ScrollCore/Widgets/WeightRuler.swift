/// The infinite weight ruler (WIDGETS.md §1): drag under a fixed centre pointer,
/// labels 9…999 wrapping, rests exactly on a tick, reports the value.
///
/// Tick n stands for n/10 kg before wrapping; block w (its label) spans ticks 10w−5 … 10w+4
/// and its major tick is n = 10w. Labels run 9…999 and start again, so the ruler is periodic.
public final class WeightRuler: DialOwner, ReadoutSource {
    public static let ticksPerBlock = 10
    public static let minLabel = 9
    public static let maxLabel = 999
    public static let labelCount = maxLabel - minLabel + 1  // 991
    /// Ticks in tenths of a kg: 85 … 9994 (8.5 … 999.4 kg: block 9 starts at 8.5), then again.
    public static let scale = TickScale(
        spacing: 10, extent: .wrapping(first: minLabel * ticksPerBlock - 5, count: labelCount * ticksPerBlock))
    /// `setValue`'s value: any value the labels name, 8.5 … 999.4 kg, and past 999.4 the
    /// wrap onto 8.5 … 8.9 (WIDGETS.md §1), so 999.5 … 999.9 land there.
    public static let settableValue = FieldRule<Double, Double>.number(
        in: Double(scale.indices.lowerBound) / 10...Double(maxLabel * 10 + 9) / 10)

    /// Its value in tenths reads "72.5 kg" (its events, its readout).
    public static let format = NumberFormat(decimals: 1, unit: "kg")

    public let id: String
    public let frame: Rect
    public let dial: Dial

    public init(id: String = "ruler", frame: Rect, value: Double = 72.5) {
        self.id = id
        self.frame = frame
        // It snaps and does not click; Home and End go to the first and last label (9.0 and
        // 999.0 kg), the short way round.
        dial = Dial(
            widget: id, scale: Self.scale, index: Int((value * 10).rounded()), snaps: true, click: nil,
            format: Self.format, keyRange: (Self.minLabel * Self.ticksPerBlock)...(Self.maxLabel * Self.ticksPerBlock))
    }

    public var tenths: Int { dial.index }
    public var value: Double { Self.format.value(tenths) }
    public var valueText: String { Self.format.text(tenths) }
    public var isAnimating: Bool { dial.isMoving }
    /// Its glide's value reports go ahead: the glide is one track, so nothing else would be sent
    /// per tick.
    public var glideKey: Int? { dial.glideKey }
    public func eventsAhead() -> [SceneEvent] { dial.eventsAhead() }
    /// What its readout shows: tenths, read with `format`.
    public var readoutValue: ReadoutValue { .number(tenths) }

    /// The label of the block whose major tick is tick 10·b.
    public static func label(ofBlock b: Int) -> Int { minLabel + TickScale.mod(b - minLabel, labelCount) }

    public var semantics: Semantics {
        Semantics(
            id: id, role: "slider", label: "Weight", frame: frame, valueNow: value,
            valueMin: Double(Self.scale.indices.lowerBound) / 10, valueMax: Double(Self.scale.indices.upperBound) / 10,
            valueText: valueText)
    }

    public var actions: [String] { ["setValue"] }
    public var valueSetter: ValueSetter? { ValueSetter(action: "setValue", argument: "value", takes: .number) }

    public func check(_ action: ActionInput) throws(ActionError) {
        _ = try targetTenths(action)
    }

    /// `setValue {"value": kg}`: animates like a key step to the tick of that value (rounded
    /// to 0.1), the short way round the wrap, and reports the final value at rest. A finger
    /// on the ruler wins, as for keys: the action is then ignored.
    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {
        dial.move(toIndex: try targetTenths(action), at: time, events: &events)
    }

    private func targetTenths(_ action: ActionInput) throws(ActionError) -> Int {
        let value = try action.argument("value", Self.settableValue, on: id)
        return Self.scale.index(ofTick: Int((value * 10).rounded()))
    }

    /// `{"value": kg}`: the value it last rested on (it always rests on a tick).
    public var snapshot: JSONValue? { .object([("value", .number(Self.format.value(dial.settled.index)))]) }

    public func restore(_ snapshot: JSONValue) throws(SnapshotError) {
        let kg = try SnapshotFields(snapshot, of: id, fields: ["value"]).required("value", Self.settableValue)
        dial.rest(onIndex: Self.scale.index(ofTick: Int((kg * 10).rounded())))
    }

    // MARK: drawing (seed geometry: major tick to 0.46875·H, minor to 0.3125·H, label 4 pt below)

    /// The ticks are drawn once per `anchorStep` points of scroll: relative to an anchor (the
    /// content offset rounded down to this step), covering the visible width plus the step, and
    /// the layer's offset slides them the rest of the way. A drag then resends only the offset
    /// (a few bytes), and the ticks once per 200 pt.
    public static let anchorStep = 200.0
    /// A glide no longer than this (pt) is drawn whole when it starts, from where it starts to
    /// where it will rest: the frame then carries it as one track (docs/PROTOCOL.md, "Tracks")
    /// and one drawing. A longer one (Home to End is half the ruler) goes frame by frame. At rest
    /// it keeps that drawing (which shows the rest, so its frame sends nothing) until input comes;
    /// a restored ruler, or one whose glide went frame by frame, is drawn by its anchor.
    public static let longestDrawnGlide = 4000.0
    /// While a finger holds it, this much more is drawn on either side of the anchor's step (pt),
    /// so a page that predicts the drag (docs/PROTOCOL.md, "Prediction") has ticks to show until
    /// the next frame comes, a round trip later.
    public static let heldMargin = 400.0

    /// What the ticks are drawn for: tick n at `centre + n·spacing − origin` (so the layer's offset
    /// is `origin − contentOffset`), those visible at content offsets [lo, hi + anchorStep). At rest
    /// all three are the content offset rounded down to the step, unless it rested from a glide
    /// drawn whole (its drawing is kept). From a finger's down to the rest
    /// of its glide the origin stays where the down was, so the layer's offset means the same all
    /// along: a page that predicts the drag (docs/PROTOCOL.md, "Prediction") hands over to the
    /// glide's track without a jump.
    var drawn: (origin: Double, lo: Double, hi: Double) {
        let step = Self.anchorStep
        func cell(_ x: Double) -> Double { (x / step).rounded(.down) * step }
        let here = cell(contentOffset)
        // The ruler's paths are monotonic (no edges, no springs): it is between the two ends.
        if let glide = dial.lastGlide, abs(glide.to - glide.from) <= Self.longestDrawnGlide,
            (min(glide.from, glide.to)...max(glide.from, glide.to)).contains(contentOffset)
        {
            return (cell(glide.gestureStart), cell(min(glide.from, glide.to)), cell(max(glide.from, glide.to)))
        }
        if dial.isHeld { return (cell(dial.gestureStart), here - Self.heldMargin, here + Self.heldMargin) }
        return (here, here, here)
    }

    public var layerOffset: Point { Point(x: drawn.origin - contentOffset, y: 0) }
    public var drawingKey: DrawingKey? {
        let drawn = drawn
        return DrawingKey(drawn.origin, drawn.lo, drawn.hi)
    }

    /// Held: its layer moves with the finger one to one, within what is drawn.
    public var pointerFollow: PointerFollow? {
        guard dial.isHeld else { return nil }
        let drawn = drawn
        return PointerFollow(
            axis: .x, ratio: 1, range: (drawn.origin - drawn.hi - Self.anchorStep)...(drawn.origin - drawn.lo))
    }

    /// A glide whose whole path is drawn: its offset as a track.
    public var layerMotion: LayerMotion? {
        guard let glide = dial.glide, abs(glide.to - glide.from) <= Self.longestDrawnGlide else { return nil }
        let drawn = drawn
        return dial.glideMotion(origin: drawn.origin, drawing: drawn.hi - drawn.lo)
    }

    public func render(into list: inout DisplayList, theme: Theme) {
        let h = frame.height, centre = frame.midX, spacing = Self.scale.spacing, (origin, lo, hi) = drawn
        // Every offset in [lo, hi + step) must find its visible ticks drawn.
        let left = lo - frame.width / 2, right = hi + Self.anchorStep + frame.width / 2
        list.save()
        list.clip(frame)
        list.setFill(theme.surface)
        list.fillRect(frame)
        let first = Int(((left - 20) / spacing).rounded(.up))
        let last = Int(((right + 20) / spacing).rounded(.down))
        // Content x (before the offset).
        func contentX(_ n: Int) -> Double { centre + Double(n) * spacing - origin }
        let top = frame.minY, majorLength = 0.46875 * h
        let firstMajor = first + TickScale.mod(-first, Self.ticksPerBlock)

        list.save()
        list.scroll()
        // Two line runs and a number run, not an op per tick or label: the whole layer stays well
        // under 1 KB when the anchor moves and it is resent.
        list.setStroke(theme.tick, width: 1)
        list.lineRun(
            contentX(first), top, contentX(first), top + 0.3125 * h, dx: spacing, dy: 0,
            count: last - first + 1, skipEvery: Self.ticksPerBlock, skipPhase: firstMajor - first)
        list.setStroke(theme.tick, width: 2)
        let majors = firstMajor > last ? 0 : (last - firstMajor) / Self.ticksPerBlock + 1
        list.lineRun(
            contentX(firstMajor), top, contentX(firstMajor), top + majorLength,
            dx: spacing * Double(Self.ticksPerBlock), dy: 0, count: majors)
        // Their labels, one under each major tick, as one run of numbers wrapping as the labels do.
        list.setFill(theme.text)
        list.numberRun(
            NumberRun(
                x0: contentX(firstMajor), y0: top + majorLength + 4, dx: spacing * Double(Self.ticksPerBlock), size: 17,
                align: .center, baseline: .top, count: majors,
                first: Self.label(ofBlock: firstMajor / Self.ticksPerBlock),
                wrap: Self.minLabel...Self.maxLabel))
        list.restore()
        // Fixed centre pointer.
        list.setFill(theme.accent)
        list.fillRect(Rect(x: centre - 1.5, y: frame.minY, width: 3, height: 0.6 * h))
        list.fillPolygon([
            Point(x: centre - 8, y: frame.minY), Point(x: centre + 8, y: frame.minY),
            Point(x: centre, y: frame.minY + 10),
        ])
        list.restore()
    }
}
