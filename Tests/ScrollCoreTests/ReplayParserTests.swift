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
        #expect(entries == [
            .pointer(.down, t: 0, x: 10, y: 200),
            .pointer(.move, t: 5, x: 12.5, y: 201, pointer: 7, client: "b"),
            .wheel(t: 5, x: 195, y: 214, dx: 0, dy: -3, deltaMode: 1),
            .key("ArrowLeft", t: 9),
            .key("Enter", t: 9, widget: "picker"),
        ])
        #expect(entries[0].client == "a" && entries[0].pointer == 1 && entries[3].widget == "ruler")
    }

    @Test("bad JSON names its line")
    func badJSON() {
        let e = error("""
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
        let missing = error("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 200}\n{\"t\": 1, \"type\": \"move\", \"y\": 200}")
        #expect(missing?.line == 2)
        #expect(missing?.message == "\"x\" is required on a move line")
        let text = error("\n\n\n\n\n\n{\"t\": 1, \"type\": \"move\", \"x\": \"10\", \"y\": 200}")
        #expect(text?.description == "trace.jsonl:7: \"x\" must be a finite number")
        #expect(error("{\"t\": 1, \"type\": \"wheel\", \"x\": 1}")?.message == "\"y\" is required on a wheel line")
        #expect(error("{\"t\": 1, \"type\": \"up\", \"x\": 1, \"y\": true}")?.message == "\"y\" must be a finite number")
        #expect(error("{\"t\": 1, \"type\": \"up\", \"x\": 1e7, \"y\": 1}")?.message.hasPrefix("\"x\" must be within") == true)
    }

    @Test("a time before the previous line's is an error naming both lines")
    func decreasingTime() {
        let e = error("""
            {"t": 0, "type": "down", "x": 1, "y": 200}
            {"t": 150, "type": "move", "x": 2, "y": 200}
            {"t": 150, "type": "move", "x": 3, "y": 200}
            {"t": 120, "type": "up", "x": 3, "y": 200}
            """)
        #expect(e?.line == 4)
        #expect(e?.message == "\"t\" is 120 ms, before line 3's 150 ms; lines must be in time order")
    }

    @Test("unknown type, missing type, bad time, key without key")
    func other() {
        #expect(error("{\"t\": 0, \"type\": \"tap\", \"x\": 1, \"y\": 1}")?.message
            == "\"type\" must be one of down, move, up, cancel, wheel, key, not \"tap\"")
        #expect(error("{\"t\": 0, \"x\": 1, \"y\": 1}")?.message == "\"type\" is required")
        #expect(error("{\"type\": \"down\", \"x\": 1, \"y\": 1}")?.message == "\"t\" is required")
        #expect(error("{\"t\": -1, \"type\": \"down\", \"x\": 1, \"y\": 1}")?.message.hasPrefix("\"t\" must be within 0…") == true)
        #expect(error("{\"t\": 0, \"type\": \"key\"}")?.message == "\"key\" is required on a key line")
        #expect(error("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 1, \"pointer\": 1.5}")?.message
            == "\"pointer\" must be an integer in -2147483648…2147483647")
        #expect(error("{\"t\": 0, \"type\": \"wheel\", \"x\": 1, \"y\": 1, \"deltaMode\": 3}")?.message
            == "\"deltaMode\" must be an integer in 0…2")
        #expect(error("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 1, \"client\": \"\"}")?.message
            == "\"client\" must be 1–64 characters")
    }

    @Test("every golden trace parses")
    func goldenTracesParse() throws {
        for name in ["slow-drag.jsonl", "fling.jsonl", "fling-caught.jsonl", "wrap.jsonl"] {
            #expect(try !TraceFiles.entries(name).isEmpty)
        }
    }
}
