import Foundation

/// The digit roller (WIDGETS.md §4, seed 001): an odometer whose columns roll with carry,
/// several turns, ease-in and ease-out, on the seed's timeline. Every column's row is an
/// `AnimatedValue`, so what it shows is a pure function of scene time.
///
/// A change that arrives while it rolls waits; beyond the seed, only the newest waiting change
/// is kept, so the label never falls behind continuous input: it shows the last change at most
/// one running roll plus one roll of the newest change after it arrived.
///
/// As a readout it shows another widget's value, which its scene pushes in (`Readout`,
/// DigitRoller+Readout.swift), instead of taking actions; its `format` draws decimals after a
/// point and a unit: "72.5 kg" with rolling digits.
public final class DigitRoller: Widget {
    public static let maxColumns = 8
    /// Re-laying the columns when one is added (the seed's `layoutCell`).
    public static let growDuration = 0.2
    /// A readout rolls each change of its source with this interval (the seed's `interval`
    /// argument) rather than the default, which grows with the change (1.8 s for 72.5 → 75.1):
    /// with only the newest change waiting it stays within about a second of what it reads.
    public static let readoutInterval = 0.3

    public let id: String
    public let frame: Rect
    /// nil: automatic (grow on the left up to `maxColumns`).
    public let fixedColumns: Int?
    /// How its number reads: decimals after a point (the number counts units of 10^−decimals)
    /// and a unit.
    public let format: NumberFormat
    public let label: String
    /// It follows another widget (a readout) instead of taking `changeTo`, and reports nothing.
    public let isReadout: Bool
    /// A readout's latest value from its scene; nil until it is given one.
    var followed: Int?
    /// The number last accepted (the seed's `displayedNumber`): a change to it is refused.
    public private(set) var number: Int
    /// The number the columns roll to now.
    private var rollingTo: Int
    /// Each column's row in its strip "0…9 0", ones first.
    private var rows: [AnimatedValue]
    /// Each column's x (its centre), animated when columns are added.
    private var lefts: [AnimatedValue]
    private var busyUntil = -Double.infinity
    private var waiting: (n: Int, interval: Double?)?
    private var reported: Int
    private var now = 0.0

    public init(
        id: String = "roller", frame: Rect, number: Int = 0, columns: Int? = nil, format: NumberFormat = NumberFormat(),
        label: String = "Number", readout: Bool = false
    ) {
        precondition(number >= 0 && RollerPlan.columns(for: number) <= Self.maxColumns, "number out of range")
        self.id = id
        self.frame = frame
        let places = min(format.decimals, Self.maxColumns - 1)
        self.format = NumberFormat(decimals: places, unit: format.unit)
        fixedColumns = columns.map { min(max($0, places + 1), Self.maxColumns) }
        self.label = label
        isReadout = readout
        self.number = number
        rollingTo = number
        reported = number
        let count = fixedColumns ?? max(RollerPlan.columns(for: number), places + 1)
        rows = RollerPlan.digits(of: number, count: count).map { AnimatedValue(Double($0)) }
        lefts = []  // columnX reads self: every property must be set first
        lefts = (0..<count).map { AnimatedValue(columnX($0, of: count)) }
    }

    /// Digits after the decimal point.
    public var decimals: Int { format.decimals }

    public var columnCount: Int { rows.count }
    /// A bold digit of DejaVu Sans is 0.7 em wide: columns as wide, so digits neither touch nor gap.
    var columnWidth: Double { fontSize * 0.7 }
    var fontSize: Double { frame.height * 0.7 }
    private var maxColumns: Int { fixedColumns ?? Self.maxColumns }
    /// Room for the decimal point, and for the unit after the digits.
    private var pointWidth: Double { decimals > 0 ? fontSize * 0.3 : 0 }
    private var unitWidth: Double { format.unit.map { fontSize * 0.3 + Double($0.count) * fontSize * 0.62 } ?? 0 }

    /// Column i's centre when `count` columns are shown, the whole group centred in the frame.
    private func columnX(_ i: Int, of count: Int) -> Double {
        let width = Double(count) * columnWidth + pointWidth + unitWidth
        let right = frame.midX + width / 2 - unitWidth
        return right - (Double(i) + 0.5) * columnWidth - (i >= decimals ? pointWidth : 0)
    }

    /// `n` as text: "72.5 kg" for 725 with one decimal and the unit kg.
    public func text(_ n: Int) -> String { format.text(n) }

    public var isAnimating: Bool {
        now < busyUntil || waiting != nil || reported != rollingTo || (followed.map { $0 != number } ?? false)
    }

    /// Its own layer holds the point and the unit: drawn again only when its columns change or
    /// re-lay (nil while they do). The digits are its parts, a column each (`parts`).
    public var drawingKey: DrawingKey? {
        guard lefts.allSatisfy({ now >= $0.endTime }) else { return nil }
        return DrawingKey(Double(rows.count))
    }

    /// The row column i is at, at the latest time seen.
    public func row(_ i: Int) -> Double { rows[i].value(at: now) }

    /// The number its columns show, each column's row weighted by its place (fractional while
    /// they roll; a column turning over from 9 to 0 takes ten of its place off at once).
    public var motionReading: MotionReading? {
        var position = 0.0, velocity = 0.0
        var place = 1.0
        for _ in 0..<decimals { place /= 10 }
        for row in rows {
            position += row.value(at: now) * place
            velocity += row.velocity(at: now) * place
            place *= 10
        }
        return MotionReading(quantity: "shown number", unit: format.unit ?? "", position: position, velocity: velocity)
    }

    public var semantics: Semantics {
        Semantics(id: id, role: "status", label: label, frame: frame, valueText: text(reported))
    }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool { false }

    // MARK: changes

    public var actions: [String] { isReadout ? [] : ["changeTo"] }
    public var valueSetter: ValueSetter? {
        isReadout ? nil : ValueSetter(action: "changeTo", argument: "n", takes: .integer)
    }

    public func check(_ action: ActionInput) throws(ActionError) {
        _ = try change(action)
    }

    /// `changeTo {"n", "animated"?, "interval"?}`: the seed's `changeToNumber:interval:animated:`.
    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {
        let (n, animated, interval) = try change(action)
        now = time
        accept(n, animated: animated, interval: interval, at: time)
        update(at: time, events: &events)
    }

    /// Rolls to `n` as `changeTo` would; a number it cannot show, or the one shown, is ignored
    /// (the roller's buttons: −1 at 0 does nothing).
    public func show(_ n: Int, at time: Double, events: inout [SceneEvent]) {
        now = time
        guard canShow(n), n != number else { return }
        accept(n, animated: true, interval: nil, at: time)
        update(at: time, events: &events)
    }

    /// Not negative, and no more digits than its columns allow.
    func canShow(_ n: Int) -> Bool { n >= 0 && RollerPlan.columns(for: n) <= maxColumns }

    /// The seed's `changeToNumber:interval:animated:` once checked: waits while it rolls.
    private func accept(_ n: Int, animated: Bool, interval: Double?, at time: Double) {
        number = n
        if time < busyUntil || waiting != nil {
            waiting = (n, interval)
        } else if animated {
            roll(to: n, interval: interval, at: time)
        } else {
            jump(to: n, at: time)
        }
    }

    private func change(_ action: ActionInput) throws(ActionError) -> (Int, Bool, Double?) {
        let n = try action.argument("n", .integer(in: 0...99_999_999), on: id)
        let digits = RollerPlan.columns(for: n)
        guard digits <= maxColumns else {
            throw ActionError(
                "changeTo on \"\(id)\": \(n) has \(digits) digits; this roller shows at most \(maxColumns)")
        }
        guard n != number else {
            throw ActionError("changeTo on \"\(id)\": \(n) is the number it already shows or is rolling to")
        }
        var animated = true
        if let value = action.args["animated"], value != .null {
            animated = try action.argument("animated", .bool, on: id)
        }
        var interval: Double?
        if let value = action.args["interval"], value != .null {
            interval = try action.argument("interval", .number(in: 0.01...60), on: id)
        }
        return (n, animated, interval)
    }

    /// The seed's `playAnimationWithChange`: the low columns that change roll, each higher one
    /// after the start phases of those below it.
    private func roll(to n: Int, interval: Double?, at time: Double) {
        let old = rollingTo
        rollingTo = n
        let relayEnd = grow(to: RollerPlan.columns(for: n), at: time)
        let counts = RollerPlan.repeatCounts(from: old, to: n)
        let seconds = interval ?? RollerPlan.interval(from: old, to: n)
        let targets = RollerPlan.digits(of: n, count: rows.count)
        var delay = 0.0, end = time
        for (i, r) in counts.enumerated() where i < rows.count {
            let current = Int(rows[i].value(at: time).rounded()) % 10
            let (moves, startDuration) = RollerPlan.moves(
                column: i, from: current, to: targets[i], repeats: r, change: n - old, interval: seconds, delay: delay)
            for move in moves { schedule(move, column: i, at: time) }
            end = max(end, time + (moves.last?.end ?? 0))
            delay += startDuration
        }
        // Done when every column has rolled and the re-lay this roll began has ended (a jump's
        // re-lay is drawing only: the jump is done at once).
        busyUntil = max(end, relayEnd ?? end)
    }

    private func schedule(_ move: RollerPlan.Move, column i: Int, at time: Double) {
        let start = time + move.start
        switch move.curve {
        case .linear:
            rows[i].run(
                RepeatSimulation(from: move.from, to: move.to, period: move.duration, count: move.repeats), at: start,
                target: move.to)
        case .easeIn:
            rows[i].animate(from: move.from, to: move.to, at: start, duration: move.duration, curve: .easeIn)
        case .easeOut:
            rows[i].animate(from: move.from, to: move.to, at: start, duration: move.duration, curve: .easeOut)
        }
    }

    private func jump(to n: Int, at time: Double) {
        rollingTo = n
        grow(to: RollerPlan.columns(for: n), at: time)
        for (i, digit) in RollerPlan.digits(of: n, count: rows.count).enumerated() {
            rows[i].set(Double(digit), at: time)
        }
        busyUntil = time
    }

    /// Adds columns on the left (showing 0) and re-lays all of them over 0.2 s per column added;
    /// returns when that ends (nil when nothing was added).
    @discardableResult
    private func grow(to count: Int, at time: Double) -> Double? {
        guard fixedColumns == nil, count > rows.count else { return nil }
        let added = count - rows.count, before = rows.count
        for i in before..<count {
            // Placed left of the old columns as the old layout would place them, so all slide
            // together to the new one and no digit crosses another.
            rows.append(AnimatedValue(0))
            lefts.append(AnimatedValue(columnX(i, of: before)))
        }
        for i in 0..<count {
            lefts[i].animate(to: columnX(i, of: count), at: time, duration: Self.growDuration * Double(added))
        }
        return time + Self.growDuration * Double(added)
    }

    // MARK: time

    public func advance(to time: Double, events: inout [SceneEvent]) {
        now = time
        update(at: time, events: &events)
    }

    /// Plays the waiting change when the roll ends (at that exact time), and reports the
    /// number once it has settled.
    private func update(at time: Double, events: inout [SceneEvent]) {
        // A readout rolls to its widget's value (values it cannot show are not taken).
        if let value = followed, value != number, canShow(value) {
            accept(value, animated: true, interval: Self.readoutInterval, at: time)
        }
        while let next = waiting, busyUntil <= time {
            waiting = nil
            if next.n != rollingTo { roll(to: next.n, interval: next.interval, at: busyUntil) }
        }
        for i in rows.indices {
            rows[i].discard(before: time)
            lefts[i].discard(before: time)
        }
        guard time >= busyUntil, waiting == nil, reported != rollingTo else { return }
        reported = rollingTo
        // A readout's value is reported by the widget it reads.
        guard !isReadout else { return }
        events.append(
            SceneEvent(
                time: min(time, max(busyUntil, 0)), widget: id,
                kind: .value(Double(reported), text: text(reported), final: true)))
    }

    // MARK: restoring (docs/STATE.md, DigitRoller+Snapshot.swift)

    /// The numbers it is heading through after the settled one, oldest first: the one it rolls
    /// to, then the change waiting. The last is `number`.
    var queue: [Int] {
        var queue = rollingTo != reported ? [rollingTo] : []
        if let next = waiting?.n, next != (queue.last ?? reported) { queue.append(next) }
        return queue
    }

    /// The settled number (the last one reported).
    var settledNumber: Int { reported }

    /// The columns showing `n` takes, at the least (columns only ever grow), and at the most.
    func columnRange(for n: Int) -> ClosedRange<Int> {
        (fixedColumns ?? max(RollerPlan.columns(for: n), decimals + 1))...maxColumns
    }

    /// Shows `n` at rest on `columns` columns (in `columnRange(for: n)`), nothing waiting, as
    /// if it had settled there.
    func settle(on n: Int, columns: Int) {
        number = n
        rollingTo = n
        reported = n
        waiting = nil
        busyUntil = -.infinity
        rows = RollerPlan.digits(of: n, count: columns).map { AnimatedValue(Double($0)) }
        lefts = (0..<columns).map { AnimatedValue(columnX($0, of: columns)) }
    }

    // MARK: drawing

    public func render(into list: inout DisplayList, theme: Theme) {
        func left(_ i: Int) -> Double { theme.reducedMotion ? lefts[i].target : lefts[i].value(at: now) }
        list.save()
        list.clip(frame)
        list.setFill(theme.text)
        if decimals > 0, rows.count > decimals {
            let x = left(decimals - 1) - columnWidth / 2 - pointWidth / 2
            list.text(".", x: x, y: frame.midY, size: fontSize, align: .center, baseline: .middle, weight: .bold)
        }
        if let unit = format.unit, !lefts.isEmpty {
            let ones = left(0)
            list.text(
                unit, x: ones + columnWidth / 2 + fontSize * 0.3, y: frame.midY, size: fontSize, align: .left,
                baseline: .middle, weight: .bold)
        }
        list.restore()
    }

    // MARK: columns (its parts)

    public var hasParts: Bool { true }

    /// A layer per column, ones first: its strip "0…9 0" drawn once, clipped to the frame, and
    /// scrolled by the column's row, so a roll is an offset (a track while it rolls on its own)
    /// and not the digits drawn again every frame. Reduced motion: the digit it heads for, still.
    public var parts: [WidgetPart] {
        // Asked every frame: each column's digit is the rest of the number's, ones first (as
        // `RollerPlan.digits`, without making the list).
        let rowHeight = frame.height, now = now
        var place = 1, rest = number
        return rows.indices.map { i in
            let digit = rest % 10
            defer {
                place = place > Int.max / 10 ? Int.max : place * 10
                rest /= 10
            }
            let row = rows[i], left = lefts[i], x = left.target
            let shown = isShown(i, place: place)
            let sliding = left.isAnimating(at: now)
            // The strip is drawn where the column will stand and slid there while the columns
            // re-lay (a new one grows in): the same drawing all the way.
            return WidgetPart(
                key: DrawingKey(shown ? 1 : 0, x, -1), reducedKey: DrawingKey(shown ? 1 : 0, x, Double(digit)),
                offset: Point(x: left.value(at: now) - x, y: -row.value(at: now) * rowHeight),
                motion: row.isAnimating(at: now) || sliding
                    ? (DrawingKey(row.endTime, row.target, busyUntil, left.endTime), sliding ? .both : .y) : nil)
        }
    }

    /// Whether column `i`, which stands for `place` (10^i), is drawn: leading zeros are not
    /// (a column is while it rolls, and from the units up).
    private func isShown(_ i: Int, place: Int) -> Bool {
        i <= decimals || rollingTo >= place || rows[i].value(at: now).truncatingRemainder(dividingBy: 10) != 0
    }

    /// 10^i, or `Int.max` past it.
    private static func place(of i: Int) -> Int {
        var place = 1
        for _ in 0..<i { place = place > Int.max / 10 ? Int.max : place * 10 }
        return place
    }

    public func renderPart(_ k: Int, into list: inout DisplayList, theme: Theme) {
        guard rows.indices.contains(k), isShown(k, place: Self.place(of: k)) else { return }
        let x = lefts[k].target
        list.save()
        list.clip(frame)
        list.setFill(theme.text)
        if theme.reducedMotion {
            let still = RollerPlan.digits(of: number, count: rows.count)[k]
            list.text(
                String(still), x: x, y: frame.midY, size: fontSize, align: .center, baseline: .middle, weight: .bold)
        } else {
            list.scroll()
            // Row 10 is the bottom 0 (a turn ends there before it starts again at the top).
            for r in 0...10 {
                list.text(
                    String(r % 10), x: x, y: frame.midY + Double(r) * frame.height, size: fontSize, align: .center,
                    baseline: .middle, weight: .bold)
            }
        }
        list.restore()
    }

    public func partPlan(_ k: Int) -> MotionPlan? {
        guard rows.indices.contains(k) else { return nil }
        let rowHeight = frame.height, row = rows[k], left = lefts[k], x = left.target, now = now
        let sliding = left.isAnimating(at: now)
        // The strip shows the same at y and y − 10 rows: its turns are one line on the page.
        // Columns only ever slide right as they re-lay, so x stays in the wrap's (−10 rows, 0].
        let path = row.unrolled(after: now, period: 10)
        // Standing still, its roll is eased moves: sent as they are (x stays 0).
        let keyframes =
            sliding
            ? nil
            : row.keyframes(after: now, period: 10)?.map {
                Track.Keyframe(time: $0.time, offset: Point(x: 0, y: -$0.offset.y * rowHeight), curve: $0.curve)
            }
        return MotionPlan(
            breaks: (path.breaks + (sliding ? left.breaks(after: now) : [])).sorted(),
            end: max(row.endTime, left.endTime), wrap: Track.Wrap(upper: 0, period: 10 * rowHeight),
            keyframes: keyframes
        ) {
            Point(x: left.value(at: $0) - x, y: -path.value($0) * rowHeight)
        }
    }
}
