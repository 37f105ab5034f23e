/// The digit roller (WIDGETS.md §4, seed 001): an odometer whose columns roll with carry,
/// several turns, ease-in and ease-out, on the seed's timeline. Every column's row is an
/// `AnimatedValue`, so what it shows is a pure function of scene time.
///
/// A change that arrives while it rolls waits; beyond the seed, only the newest waiting change
/// is kept, so the label never falls behind continuous input: it shows the last change at most
/// one running roll plus one roll of the newest change after it arrived.
public final class DigitRoller: Widget {
    public static let maxColumns = 8
    /// Re-laying the columns when one is added (the seed's `layoutCell`).
    public static let growDuration = 0.2

    public let id: String
    public let frame: Rect
    /// nil: automatic (grow on the left up to `maxColumns`).
    public let fixedColumns: Int?
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

    public init(id: String = "roller", frame: Rect, number: Int = 0, columns: Int? = nil) {
        precondition(number >= 0 && RollerPlan.columns(for: number) <= Self.maxColumns, "number out of range")
        self.id = id
        self.frame = frame
        fixedColumns = columns.map { min(max($0, 1), Self.maxColumns) }
        self.number = number
        rollingTo = number
        reported = number
        let count = fixedColumns ?? RollerPlan.columns(for: number)
        rows = RollerPlan.digits(of: number, count: count).map { AnimatedValue(Double($0)) }
        lefts = []
        lefts = (0..<count).map { AnimatedValue(columnX($0, of: count)) }
    }

    public var columnCount: Int { rows.count }
    var columnWidth: Double { frame.height * 0.42 }
    private var maxColumns: Int { fixedColumns ?? Self.maxColumns }

    /// Column i's centre when `count` columns are shown, centred in the frame.
    private func columnX(_ i: Int, of count: Int) -> Double {
        frame.midX + (Double(count) / 2 - Double(i) - 0.5) * columnWidth
    }

    public var isAnimating: Bool { now < busyUntil || waiting != nil || reported != rollingTo }

    /// The row column i is at, at the latest time seen.
    public func row(_ i: Int) -> Double { rows[i].value(at: now) }

    public var semantics: Semantics {
        Semantics(id: id, role: "status", label: "Number", frame: frame, valueText: String(reported))
    }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool { false }

    // MARK: changes

    public var actions: [String] { ["changeTo"] }

    public func check(_ action: ActionInput) throws(ActionError) {
        _ = try change(action)
    }

    /// `changeTo {"n", "animated"?, "interval"?}`: the seed's `changeToNumber:interval:animated:`.
    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {
        let (n, animated, interval) = try change(action)
        now = time
        number = n
        if now < busyUntil || waiting != nil {
            waiting = (n, interval)
        } else if animated {
            roll(to: n, interval: interval, at: time)
        } else {
            jump(to: n, at: time)
        }
        update(at: time, events: &events)
    }

    private func change(_ action: ActionInput) throws(ActionError) -> (Int, Bool, Double?) {
        let n = try action.argument("n", .integer(in: 0...99_999_999), on: id)
        let digits = RollerPlan.columns(for: n)
        guard digits <= maxColumns else {
            throw ActionError(
                "changeTo on \"\(id)\": \(n) has \(digits) digits; this roller shows at most \(maxColumns)")
        }
        guard n != number else { throw ActionError("changeTo on \"\(id)\": \(n) is already shown") }
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
        grow(to: RollerPlan.columns(for: n), at: time)
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
        // Done when every column has rolled and the columns have been re-laid.
        busyUntil = max(end, lefts.map(\.endTime).max() ?? end)
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

    /// Adds columns on the left (showing 0) and re-lays all of them over 0.2 s per column added.
    private func grow(to count: Int, at time: Double) {
        guard fixedColumns == nil, count > rows.count else { return }
        let added = count - rows.count
        for i in rows.count..<count {
            rows.append(AnimatedValue(0))
            lefts.append(AnimatedValue(columnX(i, of: count)))
        }
        for i in 0..<count {
            lefts[i].animate(to: columnX(i, of: count), at: time, duration: Self.growDuration * Double(added))
        }
    }

    // MARK: time

    public func advance(to time: Double, events: inout [SceneEvent]) {
        now = time
        update(at: time, events: &events)
    }

    /// Plays the waiting change when the roll ends (at that exact time), and reports the
    /// number once it has settled.
    private func update(at time: Double, events: inout [SceneEvent]) {
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
        events.append(
            SceneEvent(
                time: min(time, max(busyUntil, 0)), widget: id,
                kind: .value(Double(reported), text: String(reported), final: true)))
    }

    // MARK: drawing

    public func render(into list: inout DisplayList, theme: Theme) {
        let rowHeight = frame.height, size = frame.height * 0.7
        list.save()
        list.setFill(theme.text)
        for i in rows.indices {
            let x = lefts[i].value(at: now), row = rows[i].value(at: now)
            let cell = Rect(x: x - columnWidth / 2, y: frame.minY, width: columnWidth, height: rowHeight)
            list.save()
            list.clip(cell)
            // The strip's rows next to `row` (0…10; row 10 is the bottom 0).
            let first = max(Int(row.rounded(.down)), 0)
            for r in first...min(first + 1, 10) {
                let y = frame.midY + (Double(r) - row) * rowHeight
                list.text(String(r % 10), x: x, y: y, size: size, align: .center, baseline: .middle, weight: .bold)
            }
            list.restore()
        }
        list.restore()
    }
}
