import Testing

@testable import ScrollCore

/// docs/PROTOCOL.md, `events`: at most 32 `moved` and 32 `haptic` per widget in one message.
@Suite("Event budget of one events message")
struct EventBudgetTests {
    /// The picker swung across all 101 ticks at one instant (0 … 100), as one wheel message can.
    private func sweep(widget: String = "picker", ticks: Int = 101, at time: Double = 1) -> [SceneEvent] {
        (0..<ticks).flatMap { i in
            [
                SceneEvent(time: time, widget: widget, kind: .moved(i)),
                SceneEvent(time: time, widget: widget, kind: .haptic("selection")),
            ]
        }
    }

    @Test("32 of each or fewer: every event as it is")
    func withinBudget() {
        let events = sweep(ticks: 32)
        #expect(EventBudget.bounded(events).map(\.0) == events)
        #expect(EventBudget.bounded(events).allSatisfy { $0.count == 1 })
    }

    @Test("101 crossings: the first 31 moved and the last (100); 31 haptics and one standing for 70")
    func overBudget() {
        let value = SceneEvent(time: 1, widget: "picker", kind: .value(100, text: "100", final: false))
        let bounded = EventBudget.bounded(sweep() + [value])
        let moved = bounded.compactMap { if case .moved(let v) = $0.0.kind { v } else { nil } }
        #expect(moved == Array(0..<31) + [100])
        let haptics = bounded.filter { if case .haptic = $0.0.kind { true } else { false } }
        #expect(haptics.count == 32)
        #expect(haptics.map(\.count) == Array(repeating: 1, count: 31) + [70])
        #expect(haptics.map(\.count).reduce(0, +) == 101, "every crossing counted")
        #expect(bounded.last?.0 == value, "other events are kept, in order")
    }

    @Test("the budget is per widget: another widget's events are not counted against it")
    func perWidget() {
        let events = sweep(widget: "a", ticks: 20) + sweep(widget: "b", ticks: 40)
        let bounded = EventBudget.bounded(events)
        #expect(bounded.filter { $0.0.widget == "a" }.count == 40)
        #expect(bounded.filter { $0.0.widget == "b" }.count == 64)
    }

    @Test("on the wire a haptic standing for several carries count; the others none")
    func wire() {
        let text = ServerMessage.events(sweep())
        #expect(text.components(separatedBy: "\"count\":70").count == 2)
        #expect(!text.contains("\"count\":1"))
        #expect(text.components(separatedBy: "\"type\":\"haptic\"").count == 33)
    }
}
