import ScrollCore

/// Which of a room's events go to its clients ahead of time (docs/PROTOCOL.md, "Events ahead").
/// When a widget starts a glide that only input could change (`Scene.glides`), every event it
/// will make before it rests goes out at once with its time, and the page plays each then; as
/// the frame clock brings the same events they are not sent again. Input that changes the glide
/// before its events have all come withdraws the rest (`cancel`). The rest's own final value is
/// never sent ahead: it goes when it happens, with the frame that shows the rest.
///
/// No clock, no I/O: the room says what happened and which glides there are; this says what to
/// send (tested as transcripts, `EventsAheadTests`).
package struct EventsAhead {
    /// A glide with more events than this streams them as they happen, so a message stays within
    /// the 64 KiB an `events` message may be (MessageSizeTests). The ruler's fastest fling makes
    /// 111; the picker's glide from 0 to 100, a click, a move and a value a tick, 300.
    package static let most = 512

    package struct Cancel: Equatable, Sendable {
        package var widget: String
        /// Events of `widget` sent ahead and stamped later than this are void.
        package var after: Double
    }

    /// What one `events` message carries.
    package struct Route: Equatable, Sendable {
        package var cancel: [Cancel] = []
        package var now: [SceneEvent] = []
        package var ahead: [SceneEvent] = []
        package var isEmpty: Bool { cancel.isEmpty && now.isEmpty && ahead.isEmpty }

        /// `later` after this one, as one message (a room may apply inputs twice between writes).
        /// A page applies a message's cancel before its ahead: what `later` withdraws of this
        /// one's ahead is taken out here.
        package mutating func append(_ later: Route) {
            for void in later.cancel { ahead.removeAll { $0.widget == void.widget && $0.time > void.after } }
            cancel += later.cancel
            now += later.now
            ahead += later.ahead
        }
    }

    private struct Plan {
        let key: Int
        /// What went ahead; empty when nothing did (none to send, or more than `most`).
        let events: [SceneEvent]
        /// The first of `events` that has not happened yet.
        var next = 0
        var last: Double { events.last?.time ?? -.infinity }

        /// Whether `event` is one that went ahead (the same, at the same time to the microsecond
        /// the wire gives), and then notes it happened. What input did at a time the glide
        /// covers was not foreseen, and goes as it happens: a wheel's clicks as it swings.
        mutating func foresaw(_ event: SceneEvent) -> Bool {
            guard
                let i = events[next...].firstIndex(where: {
                    abs($0.time - event.time) <= 1e-6 && $0.kind == event.kind
                })
            else { return false }
            next = i + 1
            return true
        }
    }

    private var plans: [String: Plan] = [:]

    package init() {}

    /// Whether any glide's events are planned (sent ahead, or too many to): with no events and no
    /// glides, `route` has nothing to say unless one is.
    package var hasPlans: Bool { !plans.isEmpty }

    /// The widgets whose events went ahead and are still to come (their semantics wait too).
    package var widgetsAhead: Set<String> { Set(plans.filter { !$0.value.events.isEmpty }.keys) }

    /// Routes what happened at `time` (`events`, in order), given the glides there are now;
    /// `eventsAhead` is asked once per new glide.
    package mutating func route(
        _ events: [SceneEvent], at time: Double, glides: [(widget: String, key: Int)],
        eventsAhead: (String) -> [SceneEvent]
    ) -> Route {
        var route = Route()
        // What happened by now of a glide that went ahead was sent, even if the glide ended or
        // changed in this very step (its last reports come with its rest; a catch's own).
        for event in events {
            if plans[event.widget]?.foresaw(event) == true { continue }
            route.now.append(event)
        }
        let sent = plans
        // A glide that ended or changed: what of it was still to come is withdrawn.
        for (widget, plan) in sent where !glides.contains(where: { $0.widget == widget && $0.key == plan.key }) {
            plans[widget] = nil
            if plan.last > time { route.cancel.append(Cancel(widget: widget, after: time)) }
        }
        for (widget, key) in glides where plans[widget] == nil {
            let ahead = eventsAhead(widget)
            let sent = ahead.count <= Self.most ? ahead : []
            plans[widget] = Plan(key: key, events: sent)
            route.ahead += sent
        }
        if route.ahead.count > 1 { route.ahead = Self.merged(route.ahead) }
        return route
    }

    /// The events sent ahead that are still to come after `time`, in time order: what a client
    /// joining now is owed.
    package func pending(after time: Double) -> [SceneEvent] {
        Self.merged(plans.sorted { $0.key < $1.key }.flatMap { $0.value.events.filter { $0.time > time } })
    }

    /// In time order, stable (a widget's same-time events keep their order).
    private static func merged(_ events: [SceneEvent]) -> [SceneEvent] {
        events.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
    }
}
