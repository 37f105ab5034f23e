/// The part of a dial widget (the ruler, the picker) that is the same for each: input and
/// time go to its `TickDial`, keys step it, and what the dial reports goes to `emit`, which
/// each widget overrides to say it in its own events. Subclasses draw and describe themselves.
public class DialWidget {
    public let id: String
    public let frame: Rect
    var dial: TickDial
    /// Where Home and End go (indices).
    let keyRange: ClosedRange<Int>
    /// Content offset under the centre as of the latest call.
    public internal(set) var contentOffset: Double
    /// Scene time of the latest call.
    private(set) var now = 0.0
    /// The index it last came to rest on and the offset there: what a restart keeps.
    private(set) var settled: (index: Int, offset: Double)

    init(id: String, frame: Rect, dial: TickDial, keyRange: ClosedRange<Int>) {
        self.id = id
        self.frame = frame
        self.dial = dial
        self.keyRange = keyRange
        contentOffset = dial.offset(at: 0)
        settled = (dial.index, contentOffset)
    }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool {
        run(at: time, &events) { dial.pointer(input, at: time, into: &$0) }
        return true
    }

    /// A departed holder lets go as a finger would: the dial flings on and snaps.
    public func release(_ lift: PointerInput, at time: Double, events: inout [SceneEvent]) {
        _ = pointer(lift, at: time, events: &events)
    }

    /// A page is the widget's width (one screenful of ticks), on either axis.
    public func wheel(_ input: WheelInput, at time: Double, events: inout [SceneEvent]) {
        run(at: time, &events) { dial.wheel(input, page: frame.width, at: time, into: &$0) }
    }

    public var keys: [String] { KeyStep.keys }

    public func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool {
        guard let step = KeyStep.step(for: key) else { return false }
        run(at: time, &events) {
            dial.step(step, first: keyRange.lowerBound, last: keyRange.upperBound, at: time, into: &$0)
        }
        return true
    }

    public func advance(to time: Double, events: inout [SceneEvent]) {
        run(at: time, &events) { dial.advance(to: time, into: &$0) }
    }

    /// Eases to the tick standing for `index` (`setValue`); a finger on the dial wins.
    func move(toIndex index: Int, at time: Double, events: inout [SceneEvent]) {
        run(at: time, &events) { dial.move(toIndex: index, at: time, into: &$0) }
    }

    /// Says one thing the dial reported as scene events.
    func emit(_ report: DialEvent, into events: inout [SceneEvent]) {
        preconditionFailure("\(type(of: self)) must override emit(_:into:)")
    }

    private func run(at time: Double, _ events: inout [SceneEvent], _ body: (inout [DialEvent]) -> Void) {
        var reports: [DialEvent] = []
        body(&reports)
        now = time
        contentOffset = dial.offset(at: time)
        for report in reports {
            if case .report(let tick, _, final: true) = report {
                settled = (dial.scale.index(ofTick: tick), contentOffset)
            }
            emit(report, into: &events)
        }
    }

    /// Rests on `index` (at `offset`, inside its tick's cell, for a dial that stops between
    /// ticks) as if it had settled there: a restored state.
    func rest(onIndex index: Int, offset: Double? = nil) {
        dial = TickDial(scale: dial.scale, index: index, offset: offset, snaps: dial.snaps, clicks: dial.clicks)
        contentOffset = dial.offset(at: now)
        settled = (dial.index, contentOffset)
    }
}
