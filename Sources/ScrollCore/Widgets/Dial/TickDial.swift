/// What the ruler and the picker share (WIDGETS.md §1–2): a row of ticks dialled under a
/// fixed centre on one ScrollAxis, the pointer that owns it, the keys, and the tick under
/// the centre followed through every motion so that each new tick is seen at the exact
/// time it arrives. The widget turns `DialEvent`s into scene events.
struct TickDial: Sendable {
    static let stepDuration = 0.2

    let scale: TickScale
    /// Whether each tick crossed is its own event (the picker's clicks). Without clicks a
    /// jump costs the same however far it goes, and a glide only the reports it makes: the
    /// ruler's wheel can move millions of ticks at once.
    let clicks: Bool
    let snaps: Bool
    private(set) var axis: ScrollAxis
    /// How far `renormalise` has shifted the axis in all (pt): the axis's offset minus this
    /// is the distance scrolled, unbroken by the shifts.
    private(set) var shifted = 0.0
    /// The tick under the centre, as of the latest call.
    private(set) var tick: Int
    private var activePointer: PointerKey?
    private var reporter = ValueReporter()
    /// The latest time seen: crossings found on a motion never go back before it.
    private var clock = -Double.infinity
    /// Clicks made by jumps at one input time. A message's coalesced samples all arrive at once,
    /// and a hostile one could swing across the whole scale and back in every sample (128 × N
    /// clicks sent to every client); at one time at most one scale's worth is clicked.
    private var burst = (time: -Double.infinity, clicks: 0)

    /// Starts at rest on the tick standing for `index`, or at `offset` (in that tick's cell: a
    /// dial that stops between ticks) when given; `snaps`: rest on ticks only.
    init(scale: TickScale, index: Int, offset: Double? = nil, snaps: Bool, clicks: Bool) {
        self.scale = scale
        self.clicks = clicks
        self.snaps = snaps
        let start = offset ?? scale.offset(ofTick: scale.tick(forIndex: index, near: index))
        axis = ScrollAxis(
            offset: start, edges: scale.edges,
            snap: snaps ? SnapRule(step: scale.spacing, mode: .projected, settleDuration: Self.stepDuration) : nil,
            rate: .normal)
        self.tick = scale.tick(containing: start)
    }

    var index: Int { scale.index(ofTick: tick) }
    var isHeld: Bool { activePointer != nil }
    /// True while time alone changes the dial or its reports.
    var isMoving: Bool { axis.isMoving || reporter.isHolding }
    func offset(at time: Double) -> Double { axis.offset(at: time) }

    mutating func pointer(_ input: PointerInput, at time: Double, into events: inout [DialEvent]) {
        switch input.phase {
        case .down:
            // The scene gives a widget one pointer at a time (first down wins).
            activePointer = input.key
            axis.touchDown(at: input.position.x, clientTime: input.clientTime, time: time)
            reporter.cancelRest()
        case .move:
            guard input.key == activePointer else { return }
            axis.touchMove(to: input.position.x, clientTime: input.clientTime, time: time)
        case .up, .cancel:
            guard input.key == activePointer else { return }
            activePointer = nil
            if input.phase == .up {
                axis.touchUp(clientTime: input.clientTime, time: time)
            } else {
                axis.touchCancel(time: time)
            }
            reporter.expectRest(from: time)
        }
        update(at: time, into: &events)
    }

    /// A page is `page` points on either axis; a vertical wheel turns the dial too (down
    /// moves on, like dragging left). A finger on the dial wins.
    mutating func wheel(_ input: WheelInput, page: Double, at time: Double, into events: inout [DialEvent]) {
        guard activePointer == nil else { return }
        let (dx, dy) = input.points(page: page)
        axis.scroll(by: abs(dx) >= abs(dy) ? dx : dy, time: time)
        reporter.expectRest(from: time)
        update(at: time, into: &events)
    }

    /// Eases onto the tick standing for `index` (the short way round a wrapping scale).
    /// Returns false, changing nothing, while a finger holds the dial.
    @discardableResult
    mutating func move(toIndex index: Int, at time: Double, into events: inout [DialEvent]) -> Bool {
        let here = scale.tick(containing: axis.offset(at: time))
        return move(toTick: scale.tick(forIndex: index, near: here), at: time, into: &events)
    }

    /// `KeyStep` from the tick under the centre; `first` and `last` name indices.
    mutating func step(
        _ step: KeyStep, first: Int, last: Int, at time: Double, into events: inout [DialEvent]
    ) {
        let here = scale.tick(containing: axis.offset(at: time))
        let target: Int
        switch step {
        case .by(let n): target = scale.tick(here, steppedBy: n)
        case .first: target = scale.tick(forIndex: first, near: here)
        case .last: target = scale.tick(forIndex: last, near: here)
        }
        move(toTick: target, at: time, into: &events)
    }

    @discardableResult
    private mutating func move(toTick target: Int, at time: Double, into events: inout [DialEvent]) -> Bool {
        guard activePointer == nil else { return false }
        axis.animate(to: scale.offset(ofTick: target), duration: Self.stepDuration, time: time)
        reporter.expectRest(from: time)
        update(at: time, into: &events)
        return true
    }

    mutating func advance(to time: Double, into events: inout [DialEvent]) {
        var spans: [AxisSpan] = []
        axis.advance(to: time) { spans.append($0) }
        for span in spans { follow(span, into: &events) }
        update(at: time, into: &events)
    }

    /// At rest on a wrapping scale, shifts by whole periods so numbers stay small however far
    /// one scrolls. The offset is then a whole tick, so the shift is exact and nothing on
    /// screen changes.
    private mutating func renormalise(at time: Double) {
        guard let period = scale.period, axis.phase == .idle else { return }
        let turns = (axis.offset(at: time) / period).rounded(.towardZero)
        guard turns != 0 else { return }
        axis.rebase(by: -turns * period)
        shifted -= turns * period
        tick = scale.tick(containing: axis.offset(at: time))
    }

    /// Every tick between the centre tick and the span's end, each at the time it is reached.
    private mutating func follow(_ span: AxisSpan, into events: inout [DialEvent]) {
        let target = scale.tick(containing: span.endOffset)
        while tick != target {
            let direction = target > tick ? 1 : -1
            if !clicks, let due = reporter.dueTime {
                // Every tick reached before a held report falls due only replaces it: skip
                // to the tick under the centre then (or to the span's end, still held).
                guard due <= span.end else {
                    tick = target
                    reporter.hold(target)
                    break
                }
                tick = scale.tick(containing: span.offset(at: due))
                reporter.hold(tick)
                reporter.flush(upTo: due, into: &events)
                continue
            }
            let time = max(clock, span.time(reaching: scale.boundary(from: tick, direction: direction)))
            clock = time
            tick += direction
            // A report held back until before this crossing comes first.
            reporter.flush(upTo: time, into: &events)
            if clicks { events.append(.crossed(tick: tick, at: time)) }
            reporter.changed(to: tick, at: time, into: &events)
        }
    }

    /// After input at `time` (a drag or wheel moves the offset at once): the ticks it jumped,
    /// all at `time`, reported once; then the final report if the dial has come to rest.
    private mutating func update(at time: Double, into events: inout [DialEvent]) {
        clock = time
        let target = scale.tick(containing: axis.offset(at: time))
        if target != tick {
            let direction = target > tick ? 1 : -1
            reporter.flush(upTo: time, into: &events)
            if clicks {
                if burst.time != time { burst = (time, 0) }
                let budget = scale.indices.count - burst.clicks
                let passed = min(abs(target - tick), max(budget, 0))
                for k in 1...max(passed, 1) where passed > 0 {
                    events.append(.crossed(tick: tick + k * direction, at: time))
                }
                burst.clicks += passed
            }
            tick = target
            reporter.changed(to: tick, at: time, into: &events)
        }
        if reporter.owesFinal && axis.phase == .idle {
            // The exact rest time, not the tick that noticed it.
            let rest = min(time, max(reporter.settleStart, axis.restTime ?? time))
            reporter.rested(on: tick, at: rest, into: &events)
            renormalise(at: time)
        } else {
            reporter.flush(upTo: time, into: &events)
        }
    }
}
