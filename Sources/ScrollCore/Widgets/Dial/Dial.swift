/// The part of a dial widget (the ruler, the picker) that is the same for each: input and time
/// go to its `TickDial`, keys step it, and what the dial reports becomes scene events. What
/// differs is given as values: the scale, whether it snaps, the haptic it clicks with (if any)
/// and how its value reads. A widget owns one (`DialOwner`) and draws and describes itself.
public final class Dial {
    /// The widget it belongs to, named in its events.
    let widget: String
    private(set) var ticks: TickDial
    /// How an index reads in value events.
    let format: NumberFormat
    /// Each tick crossed is a `moved` event and a haptic of this style; nil: it does not click.
    let click: String?
    /// Where Home and End go (indices).
    let keyRange: ClosedRange<Int>
    /// Content offset under the centre as of the latest call (tests set it to draw any offset).
    var contentOffset: Double
    /// The index under the centre as of the latest call (kept: readouts ask for it every frame,
    /// and reading it from `ticks` copies the whole dial).
    private(set) var index: Int
    /// Scene time of the latest call.
    private(set) var now = 0.0
    /// When a tick was last crossed (the picker's pulse starts there).
    private(set) var lastCrossing = -Double.infinity
    /// The index it last came to rest on and the offset there: what a restart keeps.
    private(set) var settled: (index: Int, offset: Double)

    /// At rest on `index`; `snaps`: rests on ticks only.
    init(
        widget: String, scale: TickScale, index: Int, snaps: Bool, click: String?, format: NumberFormat,
        keyRange: ClosedRange<Int>
    ) {
        self.widget = widget
        ticks = TickDial(scale: scale, index: index, snaps: snaps, clicks: click != nil)
        self.format = format
        self.click = click
        self.keyRange = keyRange
        contentOffset = ticks.offset(at: 0)
        self.index = ticks.index
        settled = (self.index, contentOffset)
        gestureStart = contentOffset
    }

    /// While it moves on its own: where its current path began and where it will rest (both stay
    /// the same from the input that set the path until it rests). Nil when held or at rest.
    private(set) var glide: (from: Double, to: Double)?
    /// Its glide, or the one it came to rest from while no input has come since, with where its
    /// gesture began: a drawing made for the whole glide still shows its rest.
    private(set) var lastGlide: (from: Double, to: Double, gestureStart: Double)?
    private var lastGlideRevision = -1
    /// A finger holds it.
    private(set) var isHeld = false
    /// Where the current gesture began: the offset at the finger's down, through its hold and the
    /// glide after it; else where the current path began (a key, a wheel, an action).
    private(set) var gestureStart: Double
    /// Its axis's `revision`: grows whenever input changes where it is going.
    private(set) var revision = 0
    /// Its axis as of the latest call: what tells one path from the next (`revision`) and where
    /// it goes (`plannedPath(from:)`, from `now`). A copy: read it when a track is to be fitted.
    var axis: ScrollAxis { ticks.axis }

    var scale: TickScale { ticks.scale }
    var snaps: Bool { ticks.snaps }
    var isMoving: Bool { ticks.isMoving }

    func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) {
        var reports: [DialEvent] = []
        ticks.pointer(input, at: time, into: &reports)
        say(reports, at: time, into: &events)
    }

    func wheel(_ input: WheelInput, page: Double, at time: Double, events: inout [SceneEvent]) {
        var reports: [DialEvent] = []
        ticks.wheel(input, page: page, at: time, into: &reports)
        say(reports, at: time, into: &events)
    }

    /// Returns false for a key that is not a `KeyStep`.
    func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool {
        guard let step = KeyStep.step(for: key) else { return false }
        var reports: [DialEvent] = []
        ticks.step(step, first: keyRange.lowerBound, last: keyRange.upperBound, at: time, into: &reports)
        say(reports, at: time, into: &events)
        return true
    }

    func advance(to time: Double, events: inout [SceneEvent]) {
        var reports: [DialEvent] = []
        ticks.advance(to: time, into: &reports)
        say(reports, at: time, into: &events)
    }

    /// Eases to the tick standing for `index` (`setValue`); a finger on the dial wins.
    func move(toIndex index: Int, at time: Double, events: inout [SceneEvent]) {
        var reports: [DialEvent] = []
        ticks.move(toIndex: index, at: time, into: &reports)
        say(reports, at: time, into: &events)
    }

    /// Rests on `index` (at `offset`, inside its tick's cell, for a dial that stops between
    /// ticks) as if it had settled there: a restored snapshot.
    func rest(onIndex index: Int, offset: Double? = nil) {
        ticks = TickDial(scale: ticks.scale, index: index, offset: offset, snaps: ticks.snaps, clicks: ticks.clicks)
        ahead = nil  // a new axis counts its revisions afresh
        lastGlide = nil
        contentOffset = ticks.offset(at: now)
        self.index = ticks.index
        settled = (self.index, contentOffset)
        notePath()
    }

    /// Keeps what the drawing asks of the path every frame (`glide`, `isHeld`, `gestureStart`).
    private func notePath() {
        let axis = ticks.axis
        isHeld = ticks.isHeld
        gestureStart = axis.touchStart ?? axis.pathStart
        revision = axis.revision
        glide = !isHeld && axis.isMoving ? axis.destination.map { (axis.pathStart, $0) } : nil
        if let glide {
            lastGlide = (glide.from, glide.to, gestureStart)
            lastGlideRevision = revision
        } else if isHeld || revision != lastGlideRevision {
            lastGlide = nil
        }
    }

    /// Names the glide while it moves on its own (its axis's revision); nil while held or at rest.
    var glideKey: Int? { glide == nil ? nil : revision }

    /// Its glide as its widget's layer offset (`origin` − the content offset, on x), for a track:
    /// nil while held or at rest. `drawing` is what else the widget's drawing of the glide depends on.
    func glideMotion(origin: Double, drawing: Double = 0) -> LayerMotion? {
        guard glide != nil else { return nil }
        // The axis is copied only when the key is new and the plan asked for.
        return LayerMotion(key: DrawingKey(Double(revision), origin, drawing), axes: .x) { [self] in
            axis.plannedPath(from: now).map { MotionPlan(layerOf: $0, origin: origin) }
        }
    }

    /// The times of the ticks it will cross from now until it rests if no input comes.
    func crossingsAhead() -> [Double] {
        eventsAhead().compactMap { if case .moved = $0.kind { $0.time } else { nil } }
    }

    /// What it will report from now until it rests if no input comes, the rest's own final
    /// report not included: a copy of the dial run to the end of its planned path. Reports
    /// are stamped with exact times whatever the steps, so these are the ones the frame clock
    /// would bring (`EventsAheadDialTests`). Empty while held or at rest.
    func eventsAhead() -> [SceneEvent] {
        // Asked twice per glide, in the same step: for the room's events ahead and the picker's rings.
        if let hit = ahead, hit.revision == revision, hit.now == now { return hit.events }
        let events = runAhead()
        ahead = (revision, now, events)
        return events
    }
    private var ahead: (revision: Int, now: Double, events: [SceneEvent])?

    private func runAhead() -> [SceneEvent] {
        guard glide != nil, let end = ticks.axis.plannedPath(from: now)?.end else { return [] }
        var future = ticks
        var reports: [DialEvent] = []
        future.advance(to: end, into: &reports)
        var events: [SceneEvent] = []
        for report in reports {
            if case .report(_, _, true) = report { break }
            append(report, to: &events)
        }
        return events
    }

    /// Catches up with the dial at `time` and says what it reported.
    private func say(_ reports: [DialEvent], at time: Double, into events: inout [SceneEvent]) {
        now = time
        contentOffset = ticks.offset(at: time)
        index = ticks.index
        notePath()
        for report in reports {
            switch report {
            case .crossed(_, let at): lastCrossing = at
            case let .report(tick, _, final): if final { settled = (scale.index(ofTick: tick), contentOffset) }
            }
            append(report, to: &events)
        }
    }

    /// A report as scene events: each tick crossed as `moved` then the click's haptic (none for a
    /// dial that does not click), each report as a value.
    private func append(_ report: DialEvent, to events: inout [SceneEvent]) {
        switch report {
        case let .crossed(tick, at):
            guard let click else { return }
            events.append(SceneEvent(time: at, widget: widget, kind: .moved(scale.index(ofTick: tick))))
            events.append(SceneEvent(time: at, widget: widget, kind: .haptic(click)))
        case let .report(tick, at, final):
            let value = scale.index(ofTick: tick)
            events.append(
                SceneEvent(
                    time: at, widget: widget, kind: .value(format.value(value), text: format.text(value), final: final))
            )
        }
    }
}
