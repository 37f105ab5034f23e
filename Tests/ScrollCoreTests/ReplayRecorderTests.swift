import Testing
@testable import ScrollCore

/// What the server's recorder writes (TraceEntry.entries, TraceRecorder, jsonLine), and the
/// wire → scene mapping shared with the live server (InputMapping).
@Suite struct ReplayRecorderTests {
    func message(_ text: String) throws -> ClientMessage {
        try ClientMessage.parse(text).get()
    }

    @Test("a coalesced move gives one line per sample, each at its own time plus the offset")
    func coalesced() throws {
        let move = try message(#"{"type":"pointer","phase":"move","id":3,"x":30,"y":214,"t":116,"coalesced":[[10,214,100],[20,214.5,108],[30,214,116]]}"#)
        let entries = TraceEntry.entries(for: move, client: "c7", t: 1000)
        #expect(entries == [
            .pointer(.move, t: 1100, x: 10, y: 214, pointer: 3, client: "c7"),
            .pointer(.move, t: 1108, x: 20, y: 214.5, pointer: 3, client: "c7"),
            .pointer(.move, t: 1116, x: 30, y: 214, pointer: 3, client: "c7"),
        ])
        #expect(TraceEntry.entries(for: try message(#"{"type":"ping","t":5}"#), client: "a", t: 0).isEmpty)
        #expect(TraceEntry.entries(for: try message(#"{"type":"hello","protocol":1}"#), client: "a", t: 0).isEmpty)
    }

    @Test("wheel and key messages keep their fields")
    func wheelAndKey() throws {
        let wheel = try message(#"{"type":"wheel","x":195,"y":214,"dx":0,"dy":3,"deltaMode":1,"t":50}"#)
        #expect(TraceEntry.entries(for: wheel, client: "a", t: -40) == [.wheel(t: 10, x: 195, y: 214, dx: 0, dy: 3, deltaMode: 1)])
        let key = try message(#"{"type":"key","key":"PageUp","widget":"ruler","t":7}"#)
        #expect(TraceEntry.entries(for: key, client: "b", t: 3) == [.key("PageUp", t: 10, client: "b")])
    }

    @Test("jsonLine: fixed field order, defaults left out, and it parses back to the same entry")
    func jsonLine() throws {
        let entries: [TraceEntry] = [
            .pointer(.down, t: 0, x: 300, y: 214),
            .pointer(.move, t: 12.5, x: 287.25, y: 214, pointer: 2, client: "c1"),
            .wheel(t: 20, x: 195, y: 214, dx: -1.5, dy: 0),
            .wheel(t: 21, x: 195, y: 214, dx: 0, dy: 2, deltaMode: 2, client: "b"),
            .key("ArrowLeft", t: 30),
            .key("Enter", t: 31, widget: "picker", client: "b"),
        ]
        #expect(entries.map(\.jsonLine) == [
            #"{"t":0,"type":"down","x":300,"y":214,"pointer":1}"#,
            #"{"t":12.5,"type":"move","x":287.25,"y":214,"pointer":2,"client":"c1"}"#,
            #"{"t":20,"type":"wheel","x":195,"y":214,"dx":-1.5,"dy":0}"#,
            #"{"t":21,"type":"wheel","x":195,"y":214,"dx":0,"dy":2,"deltaMode":2,"client":"b"}"#,
            #"{"t":30,"type":"key","key":"ArrowLeft"}"#,
            #"{"t":31,"type":"key","key":"Enter","widget":"picker","client":"b"}"#,
        ])
        let text = entries.map(\.jsonLine).joined(separator: "\n")
        #expect(try TraceParser.parse(text, name: "round-trip") == entries)
    }

    @Test("wireJSON is a message the server accepts, and means the same input")
    func wire() throws {
        for entry: TraceEntry in [.pointer(.up, t: 40, x: 1, y: 2, pointer: 4), .wheel(t: 1, x: 2, y: 3, dx: 4, dy: 5, deltaMode: 2),
                                  .key("PageDown", t: 9)] {
            #expect(try message(entry.wireJSON) == entry.clientMessage)
        }
    }

    @Test("the recorder shifts each client's clock so its first message lands at its arrival")
    func recorderTimeline() throws {
        var recorder = TraceRecorder()
        #expect(recorder.record(try message(#"{"type":"hello","protocol":1}"#), client: "c1", roomTime: 1).isEmpty)
        // c1's page clock reads 50 000 ms when the room clock is at 2 s: offset −48 000 ms.
        let down = recorder.record(try message(#"{"type":"pointer","phase":"down","id":1,"x":300,"y":214,"t":50000}"#),
                                   client: "c1", roomTime: 2)
        #expect(down.map(\.t) == [2000])
        // Later samples keep the client's own spacing, whenever they arrive.
        let move = recorder.record(try message(#"{"type":"pointer","phase":"move","id":1,"x":290,"y":214,"t":50016}"#),
                                   client: "c1", roomTime: 2.5)
        #expect(move.map(\.t) == [2016])
        // c2's clock is unrelated; its first message is placed at its arrival, but never
        // before a line already written (2016 ms).
        let other = recorder.record(try message(#"{"type":"key","key":"ArrowLeft","widget":"ruler","t":3}"#),
                                    client: "c2", roomTime: 2.010)
        #expect(other.map(\.t) == [2016])
        let again = recorder.record(try message(#"{"type":"key","key":"ArrowLeft","widget":"ruler","t":100}"#),
                                    client: "c2", roomTime: 2.2)
        #expect(again.map(\.t) == [2107])
    }

    @Test("the clock offset is whole microseconds; the client's own spacing is kept exactly")
    func microsecondOffset() throws {
        var recorder = TraceRecorder()
        // Arrival at 1.0000004 s, client clock 5 ms: offset 995.0004 ms → 995 ms (whole µs: 995.000).
        let first = recorder.record(try message(#"{"type":"key","key":"ArrowLeft","widget":"ruler","t":5}"#),
                                    client: "a", roomTime: 1.0000004)
        #expect(first.map(\.t) == [1000])
        let next = recorder.record(try message(#"{"type":"key","key":"ArrowLeft","widget":"ruler","t":5.0123456}"#),
                                   client: "a", roomTime: 1.1)
        // 0.0123456 ms after the first sample, as the client measured it — not rounded to 0.012.
        #expect(abs(next[0].t - first[0].t - 0.0123456) < 1e-9)
    }

    @Test("a client leaving mid-drag gets a cancel for each pointer it held, where it was")
    func recorderLeave() throws {
        var recorder = TraceRecorder()
        _ = recorder.record(try message(#"{"type":"pointer","phase":"down","id":2,"x":300,"y":214,"t":10}"#), client: "c1", roomTime: 0)
        _ = recorder.record(try message(#"{"type":"pointer","phase":"move","id":2,"x":250,"y":215,"t":30}"#), client: "c1", roomTime: 0.02)
        _ = recorder.record(try message(#"{"type":"pointer","phase":"down","id":1,"x":100,"y":214,"t":5}"#), client: "c2", roomTime: 0.021)
        #expect(recorder.leave(client: "c1", roomTime: 0.5) == [.pointer(.cancel, t: 500, x: 250, y: 215, pointer: 2, client: "c1")])
        #expect(recorder.leave(client: "c1", roomTime: 0.6).isEmpty)
    }

    @Test("wire → scene: t ms → client time s; wheel lines 16 pt, pages 390 pt; per-client pointers")
    func inputMapping() throws {
        let down = InputMapping.sceneInputs(try message(#"{"type":"pointer","phase":"down","id":5,"x":1,"y":2,"t":1500}"#), client: "c3")
        #expect(down == [.pointer(PointerInput(phase: .down, key: PointerKey(client: "c3", pointer: 5),
                                               position: Point(x: 1, y: 2), clientTime: 1.5))])
        let lines = InputMapping.sceneInputs(try message(#"{"type":"wheel","x":1,"y":2,"dx":2,"dy":-1,"deltaMode":1,"t":0}"#), client: "a")
        #expect(lines == [.wheel(WheelInput(position: Point(x: 1, y: 2), dx: 32, dy: -16))])
        let pages = InputMapping.sceneInputs(try message(#"{"type":"wheel","x":1,"y":2,"dx":0,"dy":1,"deltaMode":2,"t":0}"#), client: "a")
        #expect(pages == [.wheel(WheelInput(position: Point(x: 1, y: 2), dx: 0, dy: 390))])
        let key = InputMapping.sceneInputs(try message(#"{"type":"key","key":"PageUp","widget":"ruler","t":0}"#), client: "a")
        #expect(key == [.key("PageUp", widget: "ruler")])
    }
}
