import Testing

@testable import ScrollCore

/// docs/TRACES.md: action lines are recorded like any input and replayed exactly; a line the
/// scene cannot perform is refused as the live server would, and reported in the result.
@Suite struct ReplayActionTests {
    @Test("the recorder writes action lines with their widget and args; they read back and play live as sent")
    func recorded() throws {
        var recorder = TraceRecorder()
        let sent = try ClientMessage.parse(
            #"{"type":"action","widget":"ruler","action":"setValue","args":{"value":80.3},"t":40}"#
        ).get()
        let lines = recorder.record(sent, client: "c2", roomTime: 1.5)
        #expect(
            lines.map(\.jsonLine)
                == [
                    #"{"t":1500,"at":1500,"type":"action","widget":"ruler","action":"setValue","args":{"value":80.3},"client":"c2"}"#
                ])
        #expect(try TraceParser.parse(lines[0].jsonLine, name: "r") == lines)
        // Live replay sends what the page would have sent, with the line's t.
        #expect(
            lines[0].clientMessage?.encoded()
                == #"{"type":"action","widget":"ruler","action":"setValue","args":{"value":80.3},"t":1500}"#)
        // Without args, the line leaves them out; the server names the focus before recording.
        let bare = try ClientMessage.parse(#"{"type":"action","action":"reset","t":41}"#).get()
        #expect(
            recorder.record(bare.naming(focus: "ruler"), client: "c2", roomTime: 1.6).map(\.jsonLine)
                == [#"{"t":1501,"at":1600,"type":"action","widget":"ruler","action":"reset","client":"c2"}"#])
    }

    @Test("an action line without a widget goes to the scene's default focus")
    func defaultFocus() throws {
        let entries = try TraceParser.parse(
            #"{"t": 0, "type": "action", "action": "setValue", "args": {"value": 42}}"#, name: "t")
        #expect(entries == [.action("setValue", t: 0, args: ["value": 42])])
        let result = Replayer(makeScene: SceneFocusAndWheelTests.scene).run(entries)
        let values = result.scene.semantics.compactMap { s in s.valueNow.map { (s.id, $0) } }
        #expect(values.map(\.0) == ["scale", "other"] && values.map(\.1) == [42, 72.5])
    }

    @Test("lines the scene cannot perform are refused and reported; the rest of the trace plays")
    func refused() throws {
        let text = """
            {"t": 0, "type": "action", "widget": "foo", "action": "setValue", "args": {"value": 80}}
            {"t": 10, "type": "action", "widget": "ruler", "action": "spin"}
            {"t": 20, "type": "action", "widget": "ruler", "action": "setValue", "args": {"value": true}}
            {"t": 30, "type": "action", "widget": "ruler", "action": "setValue", "args": {"value": 75.5}}
            """
        let result = Replayer().run(try TraceParser.parse(text, name: "t"))
        #expect(result.finalValues == [75.5])
        #expect(
            result.refused.map(\.message) == [
                "no widget \"foo\" in this scene (widgets: readout, ruler, picker, count, carousel, itemName, roller, rollerPlus1, rollerPlus9, rollerPlus99, rollerMinus1, rollerRandom)",
                "no action \"spin\" on widget \"ruler\" (it has: setValue)",
                "setValue on \"ruler\": args.value must be a finite number within 8.5…999.9",
            ])
        #expect(result.refused.map(\.entry.t) == [0, 10, 20])
        let json = try plainJSON(result.json)
        let reported = try #require(json["refused"] as? [[String: Any]])
        #expect(reported.count == 3)
        #expect((reported[1]["line"] as? [String: Any])?["action"] as? String == "spin")
        #expect(reported[1]["error"] as? String == "no action \"spin\" on widget \"ruler\" (it has: setValue)")
        // A clean replay's result has no "refused" member (the format stays as it was).
        #expect(try plainJSON(Replayer().run([]).json).keys.sorted() == ["events", "time", "widgets"])
    }

    @Test("malformed action lines name the field and the line")
    func malformed() {
        func error(_ line: String) -> String? {
            do { _ = try TraceParser.parse("\n" + line, name: "trace.jsonl"); return nil } catch {
                return error.description
            }
        }
        #expect(
            error(#"{"t": 0, "type": "action", "widget": "ruler"}"#)
                == #"trace.jsonl:2: "action" is required on an action line"#)
        #expect(
            error(#"{"t": 0, "type": "action", "action": "setValue", "args": [80]}"#)?
                .hasPrefix(#"trace.jsonl:2: "args" must be an object of at most 16 arguments"#) == true)
        #expect(
            error(#"{"t": 0, "type": "action", "action": "setValue", "widget": 3}"#)
                == #"trace.jsonl:2: "widget" must be a string of 1–64 characters and at most 256 bytes in UTF-8"#)
    }
}
