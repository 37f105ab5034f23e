/// The bounded tick picker (WIDGETS.md §2, seed 003): dial a count 0…N under a fixed
/// centre; ticks grow near the centre; each new centre tick is one `moved` event and one
/// haptic click, stamped with the exact time it was crossed. Hard edges, no rubber band.
///
/// Value v's tick sits at content X = 10·v, so the offset runs 0…10·N; the ticks beyond
/// both ends are padding that lets 0 and N reach the centre.
public final class TickPicker: DialOwner, ReadoutSource {
    /// How long the centre tick pulses after each click (drawn here, so replays show it).
    public static let pulseDuration = 0.15
    public static let hapticStyle = "selection"

    /// A count reads as itself.
    public static let format = NumberFormat()

    public let id: String
    public let frame: Rect
    public let dial: Dial
    public let maxValue: Int
    /// `setValue`'s value: 0…N, rounded to a whole tick.
    public let settableValue: FieldRule<Double, Double>

    /// `snaps`: rest on a tick (the default); false keeps the seed's free stop.
    public init(id: String = "picker", frame: Rect, maxValue: Int = 100, value: Int = 0, snaps: Bool = true) {
        precondition(maxValue >= 1, "a picker needs at least two values")
        self.id = id
        self.frame = frame
        self.maxValue = maxValue
        settableValue = .number(in: 0...Double(maxValue))
        // Each tick crossed is `moved` and a haptic click; Home and End go to 0 and N.
        dial = Dial(
            widget: id, scale: TickScale(spacing: 10, extent: .bounded(0...maxValue)), index: value, snaps: snaps,
            click: Self.hapticStyle, format: Self.format, keyRange: 0...maxValue)
    }

    public var value: Int { dial.index }
    public var valueText: String { Self.format.text(value) }
    public var isAnimating: Bool { dial.isMoving || isPulsing }
    /// What its count shows.
    public var readoutValue: ReadoutValue { .number(value) }
    /// Its ticks are one graded run sliding with its layer's offset, so only its rings change its
    /// drawing: a glide's, all drawn when it starts (its clicks are known then), or else the last
    /// click's while it pulses.
    public var drawingKey: DrawingKey? {
        if let glide = dial.glideKey { return DrawingKey(1, Double(glide)) }
        return DrawingKey(0, isPulsing ? dial.lastCrossing : -1)
    }
    private var isPulsing: Bool { dial.now - dial.lastCrossing < Self.pulseDuration }

    /// Content offset x is under the centre.
    public var layerOffset: Point { Point(x: -contentOffset, y: 0) }
    /// A glide is one track: the ticks grade themselves as the page plays it.
    public var layerMotion: LayerMotion? { dial.glideMotion(origin: 0) }
    /// Its glide's clicks, moves and values go ahead with their times, as the ruler's: the page
    /// plays each click as the track brings its tick to the centre.
    public var glideKey: Int? { dial.glideKey }
    public func eventsAhead() -> [SceneEvent] { dial.eventsAhead() }

    /// Padding ticks beyond each end: the seed's `ceil(centerX / 10.5)`.
    public var paddingTicks: Int { Int(((frame.midX - frame.minX) / 10.5).rounded(.up)) }

    public var semantics: Semantics {
        Semantics(
            id: id, role: "slider", label: "Count", frame: frame, valueNow: Double(value), valueMin: 0,
            valueMax: Double(maxValue), valueText: valueText)
    }

    public var actions: [String] { ["setValue"] }
    public var valueSetter: ValueSetter? { ValueSetter(action: "setValue", argument: "value", takes: .number) }

    public func check(_ action: ActionInput) throws(ActionError) {
        _ = try action.argument("value", settableValue, on: id)
    }

    /// `setValue {"value": n}`: eases to tick n (rounded), clicking on the way; a finger on
    /// the picker wins and the action is ignored.
    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {
        dial.move(
            toIndex: Int(try action.argument("value", settableValue, on: id).rounded()), at: time, events: &events)
    }

    /// `{"value": n}`, and `"offset"` (points) for a picker that stops between ticks: where it
    /// last came to rest.
    public var snapshot: JSONValue? {
        var fields: [(String, JSONValue)] = [("value", .number(Double(dial.settled.index)))]
        if !dial.snaps { fields.append(("offset", .number(dial.settled.offset))) }
        return .object(fields)
    }

    public func restore(_ snapshot: JSONValue) throws(SnapshotError) {
        let saved = try SnapshotFields(snapshot, of: id, fields: dial.snaps ? ["value"] : ["value", "offset"])
        let value = try saved.required("value", .integer(in: 0...maxValue))
        // Free stop: anywhere in the value's cell (half a spacing either side), within the ends.
        let scale = dial.scale, cell = scale.spacing / 2, centre = scale.offset(ofTick: value)
        let low = max(centre - cell, 0), high = min(centre + cell, scale.offset(ofTick: maxValue))
        let inCell = FieldRule<Double, Double>(
            "a number of points from \(JSONValue.format(low)) to \(JSONValue.format(high)), where value \(value) rests"
        ) { x in x >= low && x <= high && scale.tick(containing: x) == value ? x : nil }
        dial.rest(onIndex: value, offset: try saved.optional("offset", inCell))
    }

    // MARK: drawing

    /// A tick's grade by its distance from the centre (seed 003): the centre tick (nearer than
    /// 5 pt) is 18 × 2 pt in the text colour; the rest 14 (nearer than 16), 8 (than 26) or 4 pt
    /// tall, 1 pt wide, the seed's light grey (UIColor.lightGray, #AAA on white), taken from the
    /// theme at 60 % so that it reads on dark too.
    public static func grades(_ theme: Theme) -> [GradedRun.Grade] {
        var grey = theme.secondaryText
        grey.a = UInt8((Double(grey.a) * 0.6).rounded())
        return [
            GradedRun.Grade(below: 5, width: 2, height: 18, fill: theme.text),
            GradedRun.Grade(below: 16, width: 1, height: 14, fill: grey),
            GradedRun.Grade(below: 26, width: 1, height: 8, fill: grey),
            GradedRun.Grade(below: .infinity, width: 1, height: 4, fill: grey),
        ]
    }

    /// When its rings start: a glide's clicks from when it is first drawn (and the click before,
    /// while it pulses), kept for the glide so that every drawing of it is the same; else the last
    /// click while it pulses.
    private var ringStarts: [Double] {
        let last = isPulsing ? [dial.lastCrossing] : []
        guard let glide = dial.glideKey else { return last }
        if let rings = glideRings, rings.glide == glide { return rings.starts }
        glideRings = (glide, last + dial.crossingsAhead())
        return glideRings!.starts
    }
    private var glideRings: (glide: Int, starts: [Double])?

    public func render(into list: inout DisplayList, theme: Theme) {
        let centre = frame.midX, spacing = dial.scale.spacing
        list.save()
        list.clip(frame)
        list.setFill(theme.surface)
        list.fillRect(frame)
        let starts = ringStarts
        if !starts.isEmpty {
            // A ring that fades and widens from each click, behind the centre tick.
            list.pulse(
                Pulse(
                    center: Point(x: centre, y: frame.midY), radius: (12, 18), alpha: (0.35, 0),
                    duration: Self.pulseDuration, fill: theme.accent, starts: starts))
        }
        // Every tick, padding included, at content x = centre + n·spacing: the layer's offset
        // (−contentOffset) brings the centre value's under the centre.
        list.scroll()
        list.gradedRun(
            GradedRun(
                x0: centre - Double(paddingTicks) * spacing, y: frame.midY, dx: spacing,
                count: maxValue + 2 * paddingTicks + 1, focus: centre, grades: Self.grades(theme)))
        list.restore()
    }
}
