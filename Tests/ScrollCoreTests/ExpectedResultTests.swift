import Testing

@testable import ScrollCore

/// `ExpectedResult`: where a replay's result first differs from a saved one (`widget-replay
/// --expect`, and every golden-trace test through `expectMatches`). The result is the fling
/// golden trace's (59 events, 12 widgets, settled at 3.65 s); the expectations are its expected
/// file, changed in one place each.
@Suite struct ExpectedResultTests {
    let result: ReplayResult
    let file: String

    init() throws {
        result = try TraceFiles.replay("fling.jsonl")
        file = try TraceFiles.text("fling.expected.json")
    }

    func difference(_ change: (String) -> String) throws -> ResultDifference? {
        try ExpectedResult(parsing: change(file)).firstDifference(from: result.json)
    }

    /// The expected file with `old` replaced by `new` (exactly once).
    func replacing(_ old: String, _ new: String) -> (String) -> String {
        { text in
            #expect(text.components(separatedBy: old).count == 2, "\(old) is in the file once")
            return text.replacingOccurrences(of: old, with: new)
        }
    }

    @Test("the expected file itself: no difference; nor with an event's fields in another order")
    func equal() throws {
        #expect(try difference { $0 } == nil)
        let reordered = replacing(
            #"{"t": 0.234, "widget": "ruler", "type": "value", "value": 75.1, "text": "75.1 kg", "final": false}"#,
            #"{"final": false, "text": "75.1 kg", "value": 75.1, "type": "value", "widget": "ruler", "t": 0.234}"#)
        #expect(try difference(reordered) == nil)
    }

    @Test("an event's value changed: that event, its time and both sides")
    func changedEventValue() throws {
        let d = try #require(
            try difference(replacing(#""value": 75.1, "text": "75.1 kg""#, #""value": 75.2, "text": "75.1 kg""#)))
        #expect(abs(d.time - 0.234) < 1e-9 && !d.atEnd)
        #expect(d.subject == "event 15 (ruler value)")
        #expect(d.complaint == #""value" is 75.1, expected 75.2"#)
        #expect(d.description.hasPrefix(#"at 0.234 s, event 15 (ruler value): "value" is 75.1, expected 75.2"#))
        #expect(d.description.contains(#"\#n  expected: {"t":0.234,"widget":"ruler","type":"value","value":75.2,"#))
    }

    @Test("times agree within 1 µs: 0.5 µs off is equal, 2 µs off is a difference in \"t\"")
    func timeTolerance() throws {
        let event = #"{"t": 0.234, "widget""#
        #expect(try difference(replacing(event, #"{"t": 0.2340005, "widget""#)) == nil)
        let d = try #require(try difference(replacing(event, #"{"t": 0.234002, "widget""#)))
        #expect(d.subject == "event 15 (ruler value)" && d.complaint == #""t" is 0.234 s, expected 0.234002 s"#)
    }

    @Test("an event left out of the expectation is named as not expected; one added, as missing")
    func removedAndAddedEvents() throws {
        let line =
            #"    {"t": 0.234, "widget": "ruler", "type": "value", "value": 75.1, "text": "75.1 kg", "final": false},"#
        let removed = try #require(try difference(replacing(line + "\n", "")))
        #expect(removed.subject == "event 15 (ruler value)")
        #expect(removed.complaint == "is not expected (the result has 59 events, the expectation 58)")
        #expect(removed.result != nil && removed.expected == nil)

        let extra =
            #"    {"t": 0.235, "widget": "ruler", "type": "value", "value": 75.15, "text": "75.15 kg", "final": false},"#
        let added = try #require(try difference(replacing(line, line + "\n" + extra)))
        #expect(abs(added.time - 0.235) < 1e-9 && added.subject == "event 16 (ruler value)")
        #expect(added.complaint == "is missing from the result (the result has 59 events, the expectation 60)")
    }

    @Test("the last event's final flag, and a widget's value at the end")
    func endState() throws {
        let final = try #require(
            try difference(replacing(#""text": "79.7 kg", "final": true}"#, #""text": "79.7 kg", "final": false}"#)))
        #expect(
            final.subject == "event 59 (ruler value, final)" && final.complaint == #""final" is true, expected false"#)

        let widget = try #require(
            try difference(
                replacing(
                    #""ruler": {"value": 79.7, "text": "79.7 kg"}"#, #""ruler": {"value": 79.8, "text": "79.7 kg"}"#)))
        #expect(widget.atEnd && widget.time == result.time)
        #expect(widget.description.hasPrefix(#"at the end (3.65 s), widget "ruler": "value" is 79.7, expected 79.8"#))

        let gone = try #require(try difference(replacing(#""picker": {"value": 0, "text": "0"}, "#, "")))
        #expect(gone.subject == #"widget "picker""# && gone.complaint == "is not expected")
    }

    @Test("\"time\" and \"refused\" are compared when the expectation has them")
    func timeAndRefused() throws {
        let withTime = try #require(
            try difference { $0.replacingOccurrences(of: "{\n  \"widgets\"", with: "{\"time\": 3.5,\n  \"widgets\"") })
        #expect(withTime.complaint == #""time" is 3.65 s, expected 3.5 s"#)
        #expect(
            try difference { $0.replacingOccurrences(of: "{\n  \"widgets\"", with: "{\"time\": 3.65,\n  \"widgets\"") }
                == nil)

        // roller-refused: seven refused lines; the expectation without its second.
        let roller = try TraceFiles.replay("roller-refused.jsonl")
        let text = try TraceFiles.text("roller-refused.expected.json")
        #expect(try ExpectedResult(parsing: text).firstDifference(from: roller.json) == nil)
        var lines = text.components(separatedBy: "\n")
        let second = try #require(lines.firstIndex { $0.contains(#""n": 0}"#) })
        lines.remove(at: second)
        let d = try #require(
            try ExpectedResult(parsing: lines.joined(separator: "\n")).firstDifference(from: roller.json))
        #expect(d.subject == "refused line 2" && abs(d.time - 0.1) < 1e-9)
        #expect(d.complaint == "is not expected (the result has 7 refused lines, the expectation 6)")
    }

    @Test(
        "what is not a result is refused, saying why",
        arguments: [
            ("{\"widgets\": {}", "not valid JSON (at byte 14)"),
            ("[]", "not a JSON object"),
            ("{\"events\": []}", "\"widgets\" must be an object of each widget's value and text"),
            ("{\"widgets\": {}}", "\"events\" must be an array of events"),
            (
                "{\"widgets\": {}, \"events\": [{\"widget\": \"ruler\"}]}",
                "event 1 must be an object with a time \"t\" (s)"
            ),
            ("{\"widgets\": {}, \"events\": [], \"time\": \"3\"}", "\"time\" must be a number (s)"),
        ])
    func invalid(text: String, message: String) {
        #expect(throws: ExpectedResult.Invalid(description: message)) { try ExpectedResult(parsing: text) }
    }
}
