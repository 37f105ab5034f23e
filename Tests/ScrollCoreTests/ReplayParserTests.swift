import Testing

@testable import ScrollCore

/// docs/TRACES.md: JSON Lines, `#` comments, blank lines skipped, unknown fields ignored,
/// every error names the line.
@Suite struct ReplayParserTests {
    func error(_ text: String) -> TraceError? {
        do {
            _ = try TraceParser.parse(text, name: "trace.jsonl")
            return nil
        } catch {
            return error
        }
    }

    @Test("comments, blank lines, CRLF and unknown fields are accepted; defaults filled in")
    func lenient() throws {
        let text = """
            # a comment
              # an indented comment

            {"t": 0, "type": "down", "x": 10, "y": 200, "pressure": 0.5}\r
            {"t": 5, "type": "move", "x": 12.5, "y": 201, "pointer": 7, "client": "b", "note": {"any": [1]}}
            {"t": 5, "type": "wheel", "x": 195, "y": 214, "dy": -3, "deltaMode": 1}
            {"t": 9, "type": "key", "key": "ArrowLeft"}
            {"t": 9, "type": "key", "key": "Enter", "widget": "picker"}
            """
        let entries = try TraceParser.parse(text, name: "t")
        #expect(
            entries == [
                .pointer(.down, t: 0, x: 10, y: 200),
                .pointer(.move, t: 5, x: 12.5, y: 201, pointer: 7, client: "b"),
                .wheel(t: 5, x: 195, y: 214, dx: 0, dy: -3, deltaMode: 1),
                .key("ArrowLeft", t: 9),
                .key("Enter", t: 9, widget: "picker"),
            ])
        #expect(entries[0].client == "a" && entries[0].pointer == 1 && entries[3].widget == nil)
    }

    @Test("bad JSON names its line")
    func badJSON() {
        let e = error(
            """
            {"t": 0, "type": "down", "x": 1, "y": 200}
            # comment
            {"t": 5, "type": "move", "x": 1,
            """)
        #expect(e == TraceError(name: "trace.jsonl", line: 3, message: "not valid JSON"))
        #expect(e?.description == "trace.jsonl:3: not valid JSON")
        #expect(error("[1, 2]")?.message == "must be a JSON object")
    }

    @Test("missing or non-numeric coordinates name the field and the line")
    func coordinates() {
        let missing = error(
            "{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 200}\n{\"t\": 1, \"type\": \"move\", \"y\": 200}")
        #expect(missing?.line == 2)
        #expect(missing?.message == "\"x\" is required on a move line")
        let text = error("\n\n\n\n\n\n{\"t\": 1, \"type\": \"move\", \"x\": \"10\", \"y\": 200}")
        #expect(text?.description == "trace.jsonl:7: \"x\" must be a finite number within ±1000000")
        #expect(error("{\"t\": 1, \"type\": \"wheel\", \"x\": 1}")?.message == "\"y\" is required on a wheel line")
        #expect(
            error("{\"t\": 1, \"type\": \"up\", \"x\": 1, \"y\": true}")?.message
                == "\"y\" must be a finite number within ±1000000")
        #expect(
            error("{\"t\": 1, \"type\": \"up\", \"x\": 1e7, \"y\": 1}")?.message
                == "\"x\" must be a finite number within ±1000000")
    }

    @Test("a time before the previous line's is an error naming both lines")
    func decreasingTime() {
        let e = error(
            """
            {"t": 0, "type": "down", "x": 1, "y": 200}
            {"t": 150, "type": "move", "x": 2, "y": 200}
            {"t": 150, "type": "move", "x": 3, "y": 200}
            {"t": 120, "type": "up", "x": 3, "y": 200}
            """)
        #expect(e?.line == 4)
        #expect(e?.message == "\"t\" is 120 ms, before line 3's 150 ms; lines must be in time order")
    }

    @Test("\"at\" (arrival, ms) is read when present and absent otherwise")
    func arrival() throws {
        let entries = try TraceParser.parse(
            """
            {"t": 0, "type": "down", "x": 10, "y": 200}
            {"t": 16, "at": 40.125, "type": "move", "x": 12, "y": 200}
            {"t": 32, "at": 40.125, "type": "up", "x": 12, "y": 200}
            {"t": 48, "at": null, "type": "key", "key": "ArrowLeft"}
            """, name: "t")
        #expect(entries.map(\.at) == [nil, 40.125, 40.125, nil])
        // Scene time: "at", or "t" without it.
        #expect(entries.map(\.sceneTime) == [0, 40.125, 40.125, 48])
        #expect(entries[1] == .pointer(.move, t: 16, at: 40.125, x: 12, y: 200))
    }

    @Test("\"at\" must be a finite number of ms ≥ 0")
    func arrivalRange() {
        #expect(
            error("{\"t\": 0, \"at\": -1, \"type\": \"down\", \"x\": 1, \"y\": 1}")?.message
                == "\"at\" must be a finite number of milliseconds within 0…100000000000")
        #expect(
            error("{\"t\": 0, \"at\": 1e12, \"type\": \"down\", \"x\": 1, \"y\": 1}")?.message
                == "\"at\" must be a finite number of milliseconds within 0…100000000000")
        #expect(
            error("{\"t\": 0, \"at\": \"5\", \"type\": \"down\", \"x\": 1, \"y\": 1}")?.message
                == "\"at\" must be a finite number of milliseconds within 0…100000000000")
        let e = error(
            "{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 1}\n{\"t\": 5, \"at\": true, \"type\": \"up\", \"x\": 1, \"y\": 1}"
        )
        #expect(e?.description == "trace.jsonl:2: \"at\" must be a finite number of milliseconds within 0…100000000000")
    }

    @Test("lines are ordered by \"at\": an arrival before the previous line's is an error naming both lines")
    func decreasingArrival() {
        let e = error(
            """
            {"t": 0, "at": 10, "type": "down", "x": 1, "y": 200}
            {"t": 10, "at": 30, "type": "move", "x": 2, "y": 200}
            # the client's t still runs forward; the arrival does not
            {"t": 20, "at": 25, "type": "up", "x": 3, "y": 200}
            """)
        #expect(
            e
                == TraceError(
                    name: "trace.jsonl", line: 4,
                    message: "\"at\" is 25 ms, before line 2's 30 ms; lines must be in time order"))
        // A line without "at" is placed at its "t": 20 < 30.
        let mixed = error(
            """
            {"t": 0, "at": 30, "type": "down", "x": 1, "y": 200}
            {"t": 20, "type": "up", "x": 3, "y": 200}
            """)
        #expect(
            mixed?.description == "trace.jsonl:2: \"t\" is 20 ms, before line 1's 30 ms; lines must be in time order")
    }

    @Test("t may go back between different clients when \"at\" is ordered")
    func independentClocks() throws {
        let entries = try TraceParser.parse(
            """
            {"t": 1000, "at": 1000, "type": "down", "x": 300, "y": 214, "client": "c1"}
            {"t": 1100, "at": 1060, "type": "up", "x": 180, "y": 214, "client": "c1"}
            {"t": 1070, "at": 1070, "type": "down", "x": 200, "y": 214, "client": "c2"}
            {"t": 3, "at": 1080, "type": "key", "key": "ArrowLeft", "client": "c3"}
            {"t": 1270, "at": 1270, "type": "up", "x": 200, "y": 214, "client": "c2"}
            """, name: "t")
        #expect(entries.map(\.t) == [1000, 1100, 1070, 3, 1270])
        #expect(entries.map(\.sceneTime) == [1000, 1060, 1070, 1080, 1270])
    }

    @Test("within one client t must not go back, even with \"at\" in order; the error names both lines")
    func decreasingClientTime() {
        let e = error(
            """
            {"t": 100, "at": 100, "type": "down", "x": 1, "y": 200, "client": "b"}
            {"t": 90, "at": 105, "type": "down", "x": 1, "y": 200, "pointer": 2}
            {"t": 95, "at": 110, "type": "move", "x": 2, "y": 200, "client": "b"}
            """)
        #expect(
            e
                == TraceError(
                    name: "trace.jsonl", line: 3,
                    message:
                        "\"t\" is 95 ms, before line 1's 100 ms of the same client \"b\"; each client's times must be in order"
                ))
        // Equal times are fine (a coalesced burst can repeat a timestamp).
        #expect(
            error(
                """
                {"t": 100, "at": 100, "type": "down", "x": 1, "y": 200}
                {"t": 100, "at": 120, "type": "move", "x": 2, "y": 200}
                """) == nil)
    }

    @Test("unknown type, missing type, bad time, key without key")
    func other() {
        #expect(
            error("{\"t\": 0, \"type\": \"tap\", \"x\": 1, \"y\": 1}")?.message
                == "\"type\" must be one of down, move, up, cancel, wheel, key, action, leave, not \"tap\"")
        #expect(error("{\"t\": 0, \"x\": 1, \"y\": 1}")?.message == "\"type\" is required")
        #expect(error("{\"type\": \"down\", \"x\": 1, \"y\": 1}")?.message == "\"t\" is required")
        #expect(
            error("{\"t\": -1, \"type\": \"down\", \"x\": 1, \"y\": 1}")?.message
                == "\"t\" must be a finite number of milliseconds within 0…100000000000")
        #expect(error("{\"t\": 0, \"type\": \"key\"}")?.message == "\"key\" is required on a key line")
        #expect(
            error("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 1, \"pointer\": 1.5}")?.message
                == "\"pointer\" must be an integer in -2147483648…2147483647")
        #expect(
            error("{\"t\": 0, \"type\": \"wheel\", \"x\": 1, \"y\": 1, \"deltaMode\": 3}")?.message
                == "\"deltaMode\" must be an integer in 0…2")
        #expect(
            error("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 1, \"client\": \"\"}")?.message
                == "\"client\" must be a string of 1–64 characters and at most 256 bytes in UTF-8, not \"\"")
    }

    @Test("every golden trace parses")
    func goldenTracesParse() throws {
        for name in ["slow-drag.jsonl", "fling.jsonl", "fling-caught.jsonl", "wrap.jsonl", "action.jsonl"] {
            #expect(try !TraceFiles.entries(name).isEmpty)
        }
    }
}
