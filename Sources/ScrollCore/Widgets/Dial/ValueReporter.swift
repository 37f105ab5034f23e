/// When a dial reports its value (WIDGETS.md §1, docs/PROTOCOL.md `events`): while it moves,
/// at the time each new tick is reached, but at most once per `interval`, and a tick held
/// back by the limit at the end of that interval; once it rests, exactly one final report at
/// the rest time. Every time is exact, never a frame's, so reports do not depend on the
/// frame rate.
struct ValueReporter: Sendable {
    static let interval = 0.016
    /// Times are whole ms or µs plus 16 ms steps: in doubles 0.074 + 0.016 > 0.09, so an
    /// exact tie must not hang on rounding. Both comparisons allow this much.
    static let tolerance = 1e-9

    private var last = -Double.infinity
    private var pending: Int?
    /// A gesture (or key, wheel, action) is settling and owes a final report.
    private(set) var owesFinal = false
    /// When that settling began: a rest never predates it.
    private(set) var settleStart = 0.0

    /// A held-back report is due (the frame clock must keep ticking to deliver it).
    var isHolding: Bool { pending != nil }
    /// When the held-back report falls due; nil when none is held.
    var dueTime: Double? { pending == nil ? nil : last + Self.interval }

    /// Holds `tick` back in place of the one held (a tick reached before the report is due).
    mutating func hold(_ tick: Int) { pending = tick }

    mutating func changed(to tick: Int, at time: Double, into events: inout [DialEvent]) {
        flush(upTo: time, into: &events)
        if time - last >= Self.interval - Self.tolerance {
            last = time
            pending = nil
            events.append(.report(tick: tick, at: time, final: false))
        } else {
            pending = tick
        }
    }

    /// Reports the held-back tick if its interval has run out by `time`.
    mutating func flush(upTo time: Double, into events: inout [DialEvent]) {
        guard let tick = pending, last + Self.interval <= time + Self.tolerance else { return }
        // Never stamped after `time`, even by a rounding error (events stay in time order).
        last = min(last + Self.interval, time)
        pending = nil
        events.append(.report(tick: tick, at: last, final: false))
    }

    mutating func expectRest(from time: Double) {
        owesFinal = true
        settleStart = time
    }

    /// A finger took over: the settling it interrupted owes nothing.
    mutating func cancelRest() { owesFinal = false }

    mutating func rested(on tick: Int, at time: Double, into events: inout [DialEvent]) {
        flush(upTo: time, into: &events)
        owesFinal = false
        pending = nil
        last = time
        events.append(.report(tick: tick, at: time, final: true))
    }
}
