import Foundation
import Testing

@testable import ScrollCore

/// `events.ahead` as runs (docs/PROTOCOL.md, "Events ahead"): one object per widget and type with
/// the same fields, its times `t0` (s, to the microsecond) and `dt` (the gaps, ms, to the
/// microsecond), a field that differs an array, one that does not a single value, and texts
/// that are their values written with `toFixed` as a format.
struct EventRunsTests {
    static func value(_ t: Double, _ v: Double, _ text: String, widget: String = "ruler") -> SceneEvent {
        SceneEvent(time: t, widget: widget, kind: .value(v, text: text, final: false))
    }

    @Test("a glide's reports and another widget's haptic: two runs, times as gaps, texts as a format, exact JSON")
    func runs() {
        let ahead = [
            Self.value(0.08800000000000001, 74.2, "74.2 kg"),
            SceneEvent(time: 0.1, widget: "picker", kind: .haptic("selection")),
            Self.value(0.10400000000000001, 74.5, "74.5 kg"),
            // 3.88064951… s is 3,880,650 µs: 3,776,650 µs after the one before.
            Self.value(3.8806495104557657, 74.7, "74.7 kg"),
        ]
        let text = ServerMessage.events([], ahead: ahead, cancel: [(widget: "ruler", after: 0.05)])
        #expect(
            text == """
                {"type":"events","cancel":[{"widget":"ruler","after":0.05}],"events":[],"ahead":[\
                {"t0":0.088,"dt":[16,3776.65],"widget":"ruler","type":"value","value":[74.2,74.5,74.7],\
                "text":{"fixed":1,"suffix":" kg"},"final":false},\
                {"t0":0.1,"dt":[],"widget":"picker","type":"haptic","style":"selection"}]}
                """)
    }

    @Test("fields that are the same for all stay single; nothing ahead, no ahead field")
    func single() {
        let same = (1...3).map { SceneEvent(time: Double($0) / 10, widget: "w", kind: .moved(4)) }
        #expect(
            ServerMessage.runs(same) == [
                .object([
                    ("t0", .number(0.1)), ("dt", .array([.number(100), .number(100)])), ("widget", .string("w")),
                    ("type", .string("moved")), ("value", .number(4)),
                ])
            ])
        #expect(ServerMessage.events([]) == #"{"type":"events","events":[]}"#)
    }

    @Test("three or more equal gaps in a row go as [gap, count], two as they are; the reader adds them back")
    func repeatedGaps() throws {
        // Gaps of 16, 16, 16, 16, 20, 20, 16 ms after 0.1 s.
        let times = [0.1, 0.116, 0.132, 0.148, 0.164, 0.184, 0.204, 0.22]
        let run = ServerMessage.runs(times.map { SceneEvent(time: $0, widget: "w", kind: .moved(1)) })
        let text = ServerMessage.events([], ahead: times.map { SceneEvent(time: $0, widget: "w", kind: .moved(1)) })
        #expect(text.contains(#""t0":0.1,"dt":[[16,4],20,20,16],"#), "\(text)")
        #expect(run.count == 1)
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let read = ServerMessage.aheadEvents(json?["ahead"]).compactMap { $0["t"] as? Double }
        #expect(read == times.map { ($0 * 1e6).rounded() / 1e6 })
    }

    @Test("a run at an earlier run's times names it (times: its index); a column steadily apart goes as steps")
    func sharedTimesAndSteps() throws {
        // A picker's ticks 17, 18, 19 and their clicks, at the same three times.
        let times = [0.1, 0.107, 0.115]
        let ahead =
            times.enumerated().map { SceneEvent(time: $1, widget: "p", kind: .moved(17 + $0)) }
            + times.map { SceneEvent(time: $0, widget: "p", kind: .haptic("selection")) }
        let text = ServerMessage.events([], ahead: ahead)
        #expect(
            text == """
                {"type":"events","events":[],"ahead":[\
                {"t0":0.1,"dt":[7,8],"widget":"p","type":"moved","steps":{"value":[17,1]}},\
                {"times":0,"widget":"p","type":"haptic","style":"selection"}]}
                """)
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let read = ServerMessage.aheadEvents(json?["ahead"])
        #expect(read.map { $0["t"] as? Double } == times + times)
        #expect(read.prefix(3).map { ($0["value"] as? Double) } == [17, 18, 19])
        #expect(read.suffix(3).allSatisfy { $0["type"] as? String == "haptic" && $0["value"] == nil })
        // Not steadily apart, or fewer than three: a column as before.
        #expect(ServerMessage.arithmetic([.number(1), .number(2), .number(4)]) == nil)
        #expect(ServerMessage.arithmetic([.number(1), .number(2)]) == nil)
        // Exactly, in float64: 0.1 + 2 × 0.1 is 0.30000000000000004, not 0.3.
        #expect(ServerMessage.arithmetic([.number(0.1), .number(0.2), .number(0.3)]) == nil)
    }

    @Test("texts as a format: a prefix and a suffix, the fewest decimals that write them all, none for whole numbers")
    func formats() {
        let priced = [Self.value(1, 1.25, "$1.25 each"), Self.value(2, 12, "$12.00 each")]
        #expect(
            RunTextFormat(values: priced.map(\.valueJSON), texts: priced.map(\.textJSON))
                == .init(fixed: 2, prefix: "$", suffix: " each"))
        let ticks = [Self.value(1, 37, "37"), Self.value(2, 38, "38"), Self.value(3, -1, "-1")]
        #expect(RunTextFormat(values: ticks.map(\.valueJSON), texts: ticks.map(\.textJSON)) == .init(fixed: 0))
        #expect(ServerMessage.runs(ticks).first?.field("text") == .object([("fixed", .number(0))]))
    }

    @Test("texts stay a column when one is not its value so written, or toFixed's is not sure (a tie)")
    func columns() {
        let cases: [[SceneEvent]] = [
            // 74.25 is a tie at one decimal: JavaScript writes "74.3", C's printf "74.2".
            [Self.value(1, 74.2, "74.2 kg"), Self.value(2, 74.25, "74.3 kg")],
            // Another unit, another rounding, another zero, no number: not one format.
            [Self.value(1, 74.2, "74.2 kg"), Self.value(2, 74.5, "74.5 lb")],
            [Self.value(1, 74.2, "74.2 kg"), Self.value(2, 74.46, "74.4 kg")],
            [Self.value(1, 0.5, "0.5"), Self.value(2, -0.0, "-0.0")],
            [Self.value(1, 74.2, "heavy"), Self.value(2, 74.5, "heavier")],
        ]
        for events in cases {
            #expect(ServerMessage.runs(events).first?.field("text") == .array(events.map(\.textJSON)), "\(events)")
        }
    }

    @Test("a ruler's and a picker's glide round trip: each event as sent, its time to the microsecond exactly")
    func roundTrip() throws {
        // A month into the room's life, reports at irregular exact times, as a glide makes them.
        var events: [SceneEvent] = []
        var t = 2_592_000.123456789
        for i in 0..<68 {
            t += 0.016 + Double(i % 7) * 0.0013337
            let tenths = 742 + i * (i % 3)
            events.append(
                SceneEvent(
                    time: t, widget: "ruler",
                    kind: .value(WeightRuler.format.value(tenths), text: WeightRuler.format.text(tenths), final: false))
            )
            events.append(
                SceneEvent(
                    time: t + 0.000_000_4, widget: "picker",
                    kind: .value(TickPicker.format.value(i), text: TickPicker.format.text(i), final: false)))
            events.append(SceneEvent(time: t + 0.000_000_4, widget: "picker", kind: .haptic("selection")))
        }
        let text = ServerMessage.events([], ahead: events)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let runs = try #require(json["ahead"] as? [[String: Any]])
        #expect(runs.count == 3 && runs.filter { $0["text"] is [String: Any] }.count == 2)
        let got = ServerMessage.aheadEvents(json["ahead"])
        // Run by run: the ruler's, then the picker's values, then its haptics.
        let expected =
            ["ruler", "picker"].flatMap { w in events.filter { $0.widget == w && $0.kind.name == .value } }
            + events.filter { $0.kind.name == .haptic }
        #expect(got.count == expected.count)
        for (event, sent) in zip(got, expected) {
            #expect(event["t"] as? Double == (sent.time * 1e6).rounded() / 1e6, "\(event) \(sent)")
            guard case .value(let v, let text, let final) = sent.kind else {
                #expect(event["style"] as? String == "selection" && event["widget"] as? String == "picker")
                continue
            }
            #expect(event["widget"] as? String == sent.widget && event["type"] as? String == "value")
            #expect(event["value"] as? Double == v && event["text"] as? String == text)
            #expect(event["final"] as? Bool == final)
        }
    }
}

extension SceneEvent {
    fileprivate var valueJSON: JSONValue { field("value") }
    fileprivate var textJSON: JSONValue { field("text") }
    private func field(_ name: String) -> JSONValue { json.field(name) ?? .null }
}

extension JSONValue {
    fileprivate func field(_ name: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == name }?.1
    }
}
