/// The frame clock (docs/PROTOCOL.md, "Frame cadence"): a moving room is ticked `tickRate` times a
/// second, each room on its own phase, and a frame that something else sent (an input's, which
/// goes at once) counts as that period's: the room's next tick comes a period after it.
extension Switchboard {
    /// The tick after a frame that was not a tick's waits this share of a period longer: input
    /// that comes once a display frame (a browser's pointer moves) arrives a little early or late,
    /// and a tick that beat a late one would be a second frame in that period.
    static let inputGrace = 0.25

    /// A room due this close to now is ticked now, with the one the wake was for: rooms whose
    /// phases nearly meet share one wake (TickPacer) instead of one each a fraction of a ms apart.
    static let timerSlack = 0.001

    var tickPeriod: Double { 1 / config.tickRate }

    /// `room`'s frame went out now: while it moves, its next tick is one period away — plus the
    /// grace unless the tick sent it.
    func frameWent(in room: Room, now: Double, byTick: Bool) {
        guard room.needsTick else {
            room.nextTick = nil
            return
        }
        room.nextTick = now + tickPeriod * (byTick ? 1 : 1 + Self.inputGrace)
        armTickTimer(now: now)
    }

    /// Something in `room` moves that no frame shows yet (a dot): the next tick draws it.
    func startTicking(_ room: Room, now: Double) {
        guard room.needsTick, room.nextTick == nil else { return }
        room.nextTick = now + tickPeriod
        armTickTimer(now: now)
    }

    /// Sets the wire's one timer for the earliest room due, unless it is set for then already.
    func armTickTimer(now: Double) {
        guard let wire else { return }
        var earliest = Double.infinity
        for room in directory.rooms { if let due = room.nextTick, due < earliest { earliest = due } }
        guard earliest < .infinity, earliest != tickTimerAt else { return }
        tickTimerAt = earliest
        wire.requestTick(after: max(0, earliest - now))
    }
}
