import Testing

@testable import ScrollCore

/// `events.ahead` as runs (docs/PROTOCOL.md, "Events ahead"): one object per widget and type with
/// the same fields, `t` an array to the microsecond, a field that differs an array, one that does
/// not a single value.
struct EventRunsTests {
    @Test("a glide's reports and another widget's haptics: two runs, exact JSON")
    func runs() {
        let ahead = [
            SceneEvent(time: 0.08800000000000001, widget: "ruler", kind: .value(74.2, text: "74.2 kg", final: false)),
            SceneEvent(time: 0.1, widget: "picker", kind: .haptic("selection")),
            SceneEvent(time: 0.10400000000000001, widget: "ruler", kind: .value(74.5, text: "74.5 kg", final: false)),
            SceneEvent(time: 3.8806495104557657, widget: "ruler", kind: .value(74.7, text: "74.7 kg", final: false)),
        ]
        let text = ServerMessage.events([], ahead: ahead, cancel: [(widget: "ruler", after: 0.05)])
        #expect(
            text == """
                {"type":"events","cancel":[{"widget":"ruler","after":0.05}],"events":[],"ahead":[\
                {"t":[0.088,0.104,3.88065],"widget":"ruler","type":"value","value":[74.2,74.5,74.7],\
                "text":["74.2 kg","74.5 kg","74.7 kg"],"final":false},\
                {"t":[0.1],"widget":"picker","type":"haptic","style":"selection"}]}
                """)
    }

    @Test("fields that are the same for all stay single; nothing ahead, no ahead field")
    func single() {
        let same = (1...3).map { SceneEvent(time: Double($0) / 10, widget: "w", kind: .moved(4)) }
        #expect(
            ServerMessage.runs(same) == [
                .object([
                    ("t", .array([.number(0.1), .number(0.2), .number(0.3)])), ("widget", .string("w")),
                    ("type", .string("moved")), ("value", .number(4)),
                ])
            ])
        #expect(ServerMessage.events([]) == #"{"type":"events","events":[]}"#)
    }
}
