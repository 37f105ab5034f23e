import Testing

@testable import ScrollCore

/// What the server's recorder writes (TraceEntry.entries, TraceRecorder, jsonLine), and the
/// wire → scene mapping shared with the live server (InputMapping).
@Suite struct ReplayRecorderTests {
    func message(_ text: String) throws -> ClientMessage {
        try ClientMessage.parse(text).get()
    }

    /// A key message on the ruler sent at client time `t`.
    func key(_ t: Double) -> ClientMessage { .key(key: "ArrowLeft", widget: "ruler", t: t) }

    @Test("a coalesced move gives one line per sample, each at its own time plus the offset")
    func coalesced() throws {
        let move = try message(
            #"{"type":"pointer","phase":"move","id":3,"x":30,"y":214,"t":116,"coalesced":[[10,214,100],[20,214.5,108],[30,214,116]]}"#
        )
        let entries = TraceEntry.entries(for: move, client: "c7", t: 1000)
        #expect(
            entries == [
                .pointer(.move, t: 1100, x: 10, y: 214, pointer: 3, client: "c7"),
                .pointer(.move, t: 1108, x: 20, y: 214.5, pointer: 3, client: "c7"),
                .pointer(.move, t: 1116, x: 30, y: 214, pointer: 3, client: "c7"),
            ])
        // With an arrival, every sample's line carries it.
        #expect(TraceEntry.entries(for: move, client: "c7", t: 1000, at: 1130).map(\.at) == [1130, 1130, 1130])
        #expect(TraceEntry.entries(for: try message(#"{"type":"ping","t":5}"#), client: "a", t: 0).isEmpty)
        #expect(TraceEntry.entries(for: try message(#"{"type":"hello","protocol":1}"#), client: "a", t: 0).isEmpty)
    }

    @Test("wheel and key messages keep their fields")
    func wheelAndKey() throws {
        let wheel = try message(#"{"type":"wheel","x":195,"y":214,"dx":0,"dy":3,"deltaMode":1,"t":50}"#)
        #expect(
            TraceEntry.entries(for: wheel, client: "a", t: -40) == [
                .wheel(t: 10, x: 195, y: 214, dx: 0, dy: 3, deltaMode: 1)
            ])
        let key = try message(#"{"type":"key","key":"PageUp","widget":"ruler","t":7}"#)
        #expect(
            TraceEntry.entries(for: key, client: "b", t: 3) == [.key("PageUp", t: 10, widget: "ruler", client: "b")])
    }

    @Test(
        "jsonLine: fixed field order (t, at when present, type, …), defaults left out; it parses back to the same entry"
    )
    func jsonLine() throws {
        let entries: [TraceEntry] = [
            .pointer(.down, t: 0, x: 300, y: 214),
            .pointer(.move, t: 12.5, x: 287.25, y: 214, pointer: 2, client: "c1"),
            .wheel(t: 20, x: 195, y: 214, dx: -1.5, dy: 0),
            .wheel(t: 21, x: 195, y: 214, dx: 0, dy: 2, deltaMode: 2, client: "b"),
            .key("ArrowLeft", t: 30),
            .key("Enter", t: 31, widget: "picker", client: "b"),
            .pointer(.up, t: 32, at: 45.125, x: 1, y: 2),
            .wheel(t: 33, at: 46, x: 195, y: 214, dx: 0, dy: 1, client: "b"),
            .key("PageUp", t: 34, at: 47, widget: "picker"),
        ]
        #expect(
            entries.map(\.jsonLine) == [
                #"{"t":0,"type":"down","x":300,"y":214,"pointer":1}"#,
                #"{"t":12.5,"type":"move","x":287.25,"y":214,"pointer":2,"client":"c1"}"#,
                #"{"t":20,"type":"wheel","x":195,"y":214,"dx":-1.5,"dy":0}"#,
                #"{"t":21,"type":"wheel","x":195,"y":214,"dx":0,"dy":2,"deltaMode":2,"client":"b"}"#,
                #"{"t":30,"type":"key","key":"ArrowLeft"}"#,
                #"{"t":31,"type":"key","key":"Enter","widget":"picker","client":"b"}"#,
                #"{"t":32,"at":45.125,"type":"up","x":1,"y":2,"pointer":1}"#,
                #"{"t":33,"at":46,"type":"wheel","x":195,"y":214,"dx":0,"dy":1,"client":"b"}"#,
                #"{"t":34,"at":47,"type":"key","key":"PageUp","widget":"picker"}"#,
            ])
        let text = entries.map(\.jsonLine).joined(separator: "\n")
        #expect(try TraceParser.parse(text, name: "round-trip") == entries)
    }

    @Test("a line stands for the message that recorded it, with the line's t; a leave is no message")
    func wire() throws {
        let lines: [(TraceEntry, ClientMessage)] = [
            (.pointer(.up, t: 40, x: 1, y: 2, pointer: 4), .pointer(.init(phase: .up, id: 4, x: 1, y: 2, t: 40))),
            (
                .wheel(t: 1, x: 2, y: 3, dx: 4, dy: 5, deltaMode: 2),
                .wheel(.init(x: 2, y: 3, dx: 4, dy: 5, deltaMode: 2, t: 1))
            ),
            (.key("PageDown", t: 9), .key(key: "PageDown", widget: nil, t: 9)),
        ]
        for (entry, sent) in lines {
            #expect(entry.clientMessage == sent)
            #expect(TraceEntry.entries(for: sent, client: TraceEntry.defaultClient, t: 0) == [entry])
        }
        // A leave is no message: live, the client's connection closes.
        #expect(TraceEntry.leave(t: 5, client: "c2").clientMessage == nil)
    }

    @Test("two clients with skewed clocks: each keeps exactly its own spacing, \"at\" is each arrival (whole µs)")
    func recorderTimeline() throws {
        var recorder = TraceRecorder()
        #expect(recorder.record(try message(#"{"type":"hello","protocol":1}"#), client: "c1", roomTime: 1).isEmpty)
        func move(_ t: Double) -> ClientMessage { .pointer(.init(phase: .move, id: 1, x: 290, y: 214, t: t)) }
        var lines: [TraceEntry] = []
        // c1's page clock reads 50 000 ms when the room clock is at 2 s: offset −48 000 ms.
        lines += recorder.record(
            try message(#"{"type":"pointer","phase":"down","id":1,"x":300,"y":214,"t":50000}"#),
            client: "c1", roomTime: 2)
        // Sent 16 ms later, but it arrives only 5 ms later (the first one was delayed).
        lines += recorder.record(move(50016), client: "c1", roomTime: 2.005)
        // c2's clock is unrelated (3 ms at room time 2.010 s): its first line is put at its
        // arrival, 2010 ms — before c1's 2016 ms, and left there.
        lines += recorder.record(key(3), client: "c2", roomTime: 2.010)
        lines += recorder.record(key(19.5), client: "c2", roomTime: 2.0301)
        lines += recorder.record(move(50032.25), client: "c1", roomTime: 2.0401234567)
        #expect(lines.map(\.client) == ["c1", "c1", "c2", "c2", "c1"])
        #expect(lines.map(\.t) == [2000, 2016, 2010, 2026.5, 2032.25])
        // Each client's spacing is what it sent, to the last bit.
        #expect(lines[1].t - lines[0].t == 16 && lines[4].t - lines[1].t == 16.25)
        #expect(lines[3].t - lines[2].t == 16.5)
        // "at": the room time of each arrival in ms, rounded to whole µs (2040.1234567 → 2040.123).
        #expect(lines.map(\.at) == [2000, 2005, 2010, 2030.1, 2040.123])
        // Written and read back: the file is valid although t goes back from c1 to c2.
        let text = lines.map(\.jsonLine).joined(separator: "\n")
        #expect(try TraceParser.parse(text, name: "recorded") == lines)
    }

    @Test("all lines of one message share its arrival; \"at\" never goes back")
    func recorderArrival() throws {
        var recorder = TraceRecorder()
        let burst = recorder.record(
            try message(
                #"{"type":"pointer","phase":"move","id":3,"x":30,"y":214,"t":116,"coalesced":[[10,214,100],[20,214.5,108],[30,214,116]]}"#
            ),
            client: "a", roomTime: 0.25)
        #expect(burst.map(\.t) == [250, 258, 266])
        #expect(burst.map(\.at) == [250, 250, 250])
        // A room time before the last one written (the server's clock never does this) is held.
        let late = recorder.record(
            try message(#"{"type":"key","key":"PageUp","widget":"ruler","t":120}"#),
            client: "a", roomTime: 0.2)
        #expect(late == [.key("PageUp", t: 270, at: 250, widget: "ruler")])
    }

    @Test("a client clock that goes back, or beyond the format's range, is held so the file stays valid")
    func recorderGuards() throws {
        var recorder = TraceRecorder()
        var lines: [TraceEntry] = []
        lines += recorder.record(key(500), client: "a", roomTime: 1)  // offset +500: t 1000
        lines += recorder.record(key(400), client: "a", roomTime: 1.1)  // 900 → held at 1000
        lines += recorder.record(key(1e15), client: "a", roomTime: 1.2)  // past 10¹¹ → 10¹¹
        #expect(lines.map(\.t) == [1000, 1000, TraceParser.maxTime])
        #expect(lines.map(\.at) == [1000, 1100, 1200])
        // First message at room time 0 from a clock at 5.0006 ms: the whole-µs offset −5.001 ms
        // would put it at −0.0004 ms; it is held at 0.
        var other = TraceRecorder()
        #expect(other.record(key(5.0006), client: "b", roomTime: 0).map(\.t) == [0])
        let text = lines.map(\.jsonLine).joined(separator: "\n")
        #expect(try TraceParser.parse(text, name: "held").count == 3)
    }

    @Test("a client name that comes back after leaving resumes after its last t, with its own spacing")
    func recorderRejoin() throws {
        var recorder = TraceRecorder()
        // A first message delayed 50 ms puts this client's t 50 ms ahead of its arrivals.
        _ = recorder.record(key(0), client: "a", roomTime: 1)
        let ahead = recorder.record(key(100), client: "a", roomTime: 1.05)
        #expect(ahead == [.key("ArrowLeft", t: 1100, at: 1050, widget: "ruler")])
        #expect(recorder.leave(client: "a", roomTime: 1.06).isEmpty)
        // A new page under the same name, arriving at 1070 ms: not before its old 1100 ms.
        let back = recorder.record(key(7), client: "a", roomTime: 1.07)
        let next = recorder.record(key(23.5), client: "a", roomTime: 1.08)
        #expect(back.map(\.t) == [1100] && next.map(\.t) == [1116.5])
        #expect(back.map(\.at) == [1070] && next.map(\.at) == [1080])
    }

    @Test("the clock offset is whole microseconds; the client's own spacing is kept exactly")
    func microsecondOffset() throws {
        var recorder = TraceRecorder()
        // Arrival at 1.0000004 s, client clock 5 ms: offset 995.0004 ms → 995 ms (whole µs: 995.000).
        let first = recorder.record(
            try message(#"{"type":"key","key":"ArrowLeft","widget":"ruler","t":5}"#),
            client: "a", roomTime: 1.0000004)
        #expect(first.map(\.t) == [1000])
        let next = recorder.record(
            try message(#"{"type":"key","key":"ArrowLeft","widget":"ruler","t":5.0123456}"#),
            client: "a", roomTime: 1.1)
        // 0.0123456 ms after the first sample, as the client measured it — not rounded to 0.012.
        #expect(abs(next[0].t - first[0].t - 0.0123456) < 1e-9)
    }

    @Test("a client leaving mid-drag gets one leave line; one that held nothing gets none")
    func recorderLeave() throws {
        var recorder = TraceRecorder()
        _ = recorder.record(
            try message(#"{"type":"pointer","phase":"down","id":2,"x":300,"y":214,"t":10}"#), client: "c1", roomTime: 0)
        _ = recorder.record(
            try message(#"{"type":"pointer","phase":"move","id":2,"x":250,"y":215,"t":30}"#), client: "c1",
            roomTime: 0.02)
        _ = recorder.record(
            try message(#"{"type":"pointer","phase":"down","id":1,"x":100,"y":214,"t":5}"#), client: "c2",
            roomTime: 0.021)
        // At the departure (500 ms); t is c1's last (its clock: 30 ms, offset −10 ms).
        let lines = recorder.leave(client: "c1", roomTime: 0.5)
        #expect(lines == [.leave(t: 20, at: 500, client: "c1")])
        #expect(lines.map(\.jsonLine) == [#"{"t":20,"at":500,"type":"leave","client":"c1"}"#])
        #expect(try TraceParser.parse(lines[0].jsonLine, name: "leave") == lines)
        // Gone already, or never holding anything: nothing to replay.
        #expect(recorder.leave(client: "c1", roomTime: 0.6).isEmpty)
        #expect(recorder.leave(client: "c3", roomTime: 0.6).isEmpty)
    }

    @Test("wire → scene: t ms → client time s; wheel deltas keep their unit; per-client pointers")
    func inputMapping() throws {
        let down = InputMapping.sceneInputs(
            try message(#"{"type":"pointer","phase":"down","id":5,"x":1,"y":2,"t":1500}"#), client: "c3")
        #expect(
            down == [
                .pointer(
                    PointerInput(
                        phase: .down, key: PointerKey(client: "c3", pointer: 5),
                        position: Point(x: 1, y: 2), clientTime: 1.5))
            ])
        let lines = InputMapping.sceneInputs(
            try message(#"{"type":"wheel","x":1,"y":2,"dx":2,"dy":-1,"deltaMode":1,"t":0}"#), client: "a")
        #expect(lines == [.wheel(WheelInput(position: Point(x: 1, y: 2), dx: 2, dy: -1, unit: .lines))])
        let pages = InputMapping.sceneInputs(
            try message(#"{"type":"wheel","x":1,"y":2,"dx":0,"dy":1,"deltaMode":2,"t":0}"#), client: "a")
        #expect(pages == [.wheel(WheelInput(position: Point(x: 1, y: 2), dx: 0, dy: 1, unit: .pages))])
        let key = InputMapping.sceneInputs(
            try message(#"{"type":"key","key":"PageUp","widget":"ruler","t":0}"#), client: "a")
        #expect(key == [.key("PageUp", widget: "ruler")])
    }
}
