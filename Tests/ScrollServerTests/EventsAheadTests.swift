import ScrollCore
import Testing

@testable import ScrollServer

/// `EventsAhead` as transcripts (docs/PROTOCOL.md, "Events ahead"): what goes ahead, what is then
/// not sent again, what a change of glide withdraws, and what a joiner is owed.
struct EventsAheadTests {
    static func value(_ t: Double, _ v: Double, final: Bool = false, widget: String = "ruler") -> SceneEvent {
        SceneEvent(time: t, widget: widget, kind: .value(v, text: "\(v) kg", final: final))
    }

    /// The glide's reports, known at its start (1.0 s).
    static let plan = [value(1.016, 72.6), value(1.032, 72.7), value(1.048, 72.8)]

    @Test("a glide's events go ahead once, are not sent again as they happen, and its final goes at the rest")
    func aheadThenRest() {
        var ahead = EventsAhead()
        var asked = 0
        let glide = [(widget: "ruler", key: 7)]
        let release = ahead.route([Self.value(1.0, 72.5)], at: 1.0, glides: glide) { _ in
            asked += 1
            return Self.plan
        }
        #expect(release == EventsAhead.Route(now: [Self.value(1.0, 72.5)], ahead: Self.plan))
        #expect(ahead.widgetsAhead == ["ruler"])
        // The ticks bring the same reports: nothing to send, and the plan is not asked again.
        let tick = ahead.route([Self.value(1.016, 72.6)], at: 1.0167, glides: glide) { _ in Self.plan }
        #expect(tick.isEmpty)
        #expect(
            ahead.route([Self.value(1.032, 72.7), Self.value(1.048, 72.8)], at: 1.05, glides: glide) { _ in [] }.isEmpty
        )
        // The rest: the final value goes as it happens, and nothing is withdrawn.
        let rest = ahead.route([Self.value(1.06, 72.8, final: true)], at: 1.0667, glides: []) { _ in [] }
        #expect(rest == EventsAhead.Route(now: [Self.value(1.06, 72.8, final: true)]))
        #expect(asked == 1)
        #expect(ahead.widgetsAhead.isEmpty)
    }

    @Test("a catch withdraws what was still to come after its time; what happens after it goes as it happens")
    func catchCancels() {
        var ahead = EventsAhead()
        _ = ahead.route([], at: 1.0, glides: [("ruler", 7)]) { _ in Self.plan }
        // The catch's step brings 72.6 (sent ahead at 1.016): not again; the rest is withdrawn.
        let caught = ahead.route([Self.value(1.016, 72.6)], at: 1.02, glides: []) { _ in [] }
        #expect(caught == EventsAhead.Route(cancel: [.init(widget: "ruler", after: 1.02)]))
        #expect(!ahead.hasPlans)
        // The finger drags it on: streamed.
        let dragged = ahead.route([Self.value(1.04, 72.7)], at: 1.04, glides: []) { _ in [] }
        #expect(dragged == EventsAhead.Route(now: [Self.value(1.04, 72.7)]))
        // A new fling (another key): its events go ahead, nothing more is withdrawn.
        let next = [Self.value(1.116, 73.0)]
        let flung = ahead.route([], at: 1.1, glides: [("ruler", 8)]) { _ in next }
        #expect(flung == EventsAhead.Route(ahead: next))
        // A key changes the glide: withdrawn after 1.11, and the new glide's events go ahead.
        let keyed = ahead.route([], at: 1.11, glides: [("ruler", 9)]) { _ in [Self.value(1.126, 73.1)] }
        #expect(keyed.cancel == [.init(widget: "ruler", after: 1.11)])
        #expect(keyed.ahead == [Self.value(1.126, 73.1)])
    }

    @Test("what input makes at a time the glide's events cover was not sent ahead: it goes as it happens")
    func inputWithinTheGlide() {
        var ahead = EventsAhead()
        _ = ahead.route([], at: 1.0, glides: [("ruler", 7)]) { _ in Self.plan }
        // A wheel at 1.02 swings it at once to 73.4, a value the plan never had, and makes a new
        // glide: the step also brought 72.6 (1.016, sent ahead). 73.4 is streamed; 72.6 is not.
        let wheel = Self.value(1.02, 73.4)
        let swung = ahead.route([Self.value(1.016, 72.6), wheel], at: 1.02, glides: [("ruler", 8)]) { _ in [] }
        #expect(swung == EventsAhead.Route(cancel: [.init(widget: "ruler", after: 1.02)], now: [wheel]))
        // The same value as a planned one but at another time is not the planned one either.
        _ = ahead.route([], at: 1.1, glides: [("ruler", 9)]) { _ in [Self.value(1.2, 74.0)] }
        let early = Self.value(1.15, 74.0)
        #expect(ahead.route([early], at: 1.15, glides: [("ruler", 9)]) { _ in [] } == EventsAhead.Route(now: [early]))
    }

    @Test("two steps in one message: what the second withdraws of the first's ahead is not sent")
    func twoStepsOneMessage() {
        var ahead = EventsAhead()
        var message = ahead.route([], at: 1.0, glides: [("ruler", 1)]) { _ in Self.plan }
        message.append(ahead.route([], at: 1.02, glides: []) { _ in [] })
        #expect(message == EventsAhead.Route(cancel: [.init(widget: "ruler", after: 1.02)], ahead: [Self.plan[0]]))
    }

    @Test("a glide that ends after its last event withdraws nothing; other widgets' events pass")
    func endsQuietly() {
        var ahead = EventsAhead()
        _ = ahead.route([], at: 1.0, glides: [("ruler", 1)]) { _ in Self.plan }
        let picker = SceneEvent(time: 1.05, widget: "picker", kind: .haptic("selection"))
        let route = ahead.route([Self.value(1.048, 72.8), picker], at: 1.05, glides: []) { _ in [] }
        #expect(route == EventsAhead.Route(now: [picker]))
    }

    @Test("more than 512 (`most`) events stream as they happen; none to send sends nothing")
    func tooMany() {
        var ahead = EventsAhead()
        let many = (1...EventsAhead.most + 1).map { Self.value(1 + Double($0) * 0.016, 72.5 + Double($0) / 10) }
        #expect(!ahead.hasPlans)
        #expect(ahead.route([], at: 1.0, glides: [("ruler", 1)]) { _ in many }.isEmpty)
        #expect(ahead.widgetsAhead.isEmpty)
        // Nothing went ahead, but the glide is planned: a room still routes its steps (Room.happened).
        #expect(ahead.hasPlans)
        #expect(ahead.route([many[0]], at: 1.02, glides: [("ruler", 1)]) { _ in many } == .init(now: [many[0]]))
        var quiet = EventsAhead()
        #expect(quiet.route([], at: 1.0, glides: [("ruler", 1)]) { _ in [] }.isEmpty)
    }

    @Test("a joiner is owed what is still to come, in time order across widgets")
    func joiner() {
        var ahead = EventsAhead()
        let other = [Self.value(1.02, 5, widget: "dial"), Self.value(1.04, 6, widget: "dial")]
        _ = ahead.route([], at: 1.0, glides: [("ruler", 1), ("dial", 2)]) { $0 == "ruler" ? Self.plan : other }
        #expect(
            ahead.pending(after: 1.02) == [
                Self.value(1.032, 72.7), Self.value(1.04, 6, widget: "dial"), Self.value(1.048, 72.8),
            ])
        #expect(ahead.pending(after: 1.05).isEmpty)
    }
}
