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
    /// The offset, and the time while the centre tick pulses.
    public var drawingKey: DrawingKey? { DrawingKey(contentOffset, isPulsing ? dial.now : -1) }
    private var isPulsing: Bool { dial.now - dial.lastCrossing < Self.pulseDuration }

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

    /// A tick's look by its distance d from the centre (seed 003): the centre tick is
    /// 18 × 2 pt in the text colour; the rest 14, 8 or 4 pt tall, 1 pt wide, light grey.
    public struct TickLook: Sendable, Equatable {
        public var height: Double
        public var width: Double
        public var isCentre: Bool

        public init(distance d: Double) {
            switch abs(d) {
            case ..<5: (height, width, isCentre) = (18, 2, true)
            case ..<16: (height, width, isCentre) = (14, 1, false)
            case ..<26: (height, width, isCentre) = (8, 1, false)
            default: (height, width, isCentre) = (4, 1, false)
            }
        }
    }

    public func render(into list: inout DisplayList, theme: Theme) {
        let centre = frame.midX, spacing = dial.scale.spacing, offset = contentOffset
        list.save()
        list.clip(frame)
        list.setFill(theme.surface)
        list.fillRect(frame)
        if isPulsing {
            // A ring that fades and widens from the click, behind the centre tick.
            let age = (dial.now - dial.lastCrossing) / Self.pulseDuration
            list.setAlpha(0.35 * (1 - age))
            list.setFill(theme.accent)
            list.fillCircle(center: Point(x: centre, y: frame.midY), radius: 12 + 6 * age)
            list.setAlpha(1)
        }
        let lowest = max(-paddingTicks, Int(((offset - frame.width / 2) / spacing).rounded(.down)))
        let highest = min(maxValue + paddingTicks, Int(((offset + frame.width / 2) / spacing).rounded(.up)))
        var centreTick: Rect?
        // The seed's light grey (UIColor.lightGray, #AAA on white), taken from the theme so
        // that it reads on dark too.
        list.setFill(theme.secondaryText)
        list.setAlpha(0.6)
        for n in lowest...highest {
            let x = centre + Double(n) * spacing - offset
            let look = TickLook(distance: x - centre)
            let rect = Rect(
                x: x - look.width / 2, y: frame.midY - look.height / 2, width: look.width, height: look.height)
            if look.isCentre { centreTick = rect } else { list.fillRect(rect) }
        }
        list.setAlpha(1)
        if let centreTick {
            list.setFill(theme.text)
            list.fillRect(centreTick)
        }
        list.restore()
    }
}
