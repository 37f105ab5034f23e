import Testing

@testable import ScrollCore

/// docs/PROTOCOL.md, `events`: at most 32 events of each type per widget in one message.
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

    @Test("a late tick catching up on a glide: 200 moving values and the final one, the first 31 and the final")
    func values() {
        let moving = (0..<200).map { i in
            SceneEvent(time: Double(i) * 0.016, widget: "ruler", kind: .value(Double(i), text: "\(i)", final: false))
        }
        let final = SceneEvent(time: 3.3, widget: "ruler", kind: .value(200, text: "200", final: true))
        let bounded = EventBudget.bounded(moving + [final])
        #expect(bounded.map(\.0) == Array(moving.prefix(31)) + [final])
        #expect(bounded.allSatisfy { $0.count == 1 })
    }

    @Test("every type is budgeted: 40 added in one message keep the first 31 and the newest; 32 are all kept")
    func everyType() {
        let added = (0..<40).map { i in
            SceneEvent(time: 1, widget: "carousel", kind: .added(index: i, name: "Item \(i)"))
        }
        #expect(EventBudget.bounded(added).map(\.0) == Array(added.prefix(31)) + [added[39]])
        #expect(EventBudget.bounded(Array(added.prefix(32))).map(\.0) == Array(added.prefix(32)))
    }

    @Test("on the wire a haptic standing for several carries count; the others none")
    func wire() {
        let text = ServerMessage.events(sweep())
        #expect(text.components(separatedBy: "\"count\":70").count == 2)
        #expect(!text.contains("\"count\":1"))
        #expect(text.components(separatedBy: "\"type\":\"haptic\"").count == 33)
    }
}
