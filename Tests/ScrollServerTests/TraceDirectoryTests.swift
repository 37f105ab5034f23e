import Foundation
import ScrollCore
import Testing

@testable import ScrollServer

/// `--record`'s files (docs/TRACES.md, "Recording"): a descriptor is held only while a room
/// records; times are handed in, so the 30 s rule is checked to the second.
@Suite("Trace files: closed when quiet or evicted, reopened by this run only")
struct TraceDirectoryTests {
    let dir: TemporaryDirectory
    let log = CapturedLog()
    let traces: TraceDirectory

    init() throws {
        dir = try TemporaryDirectory()
        traces = try TraceDirectory(path: dir.path, logger: log.logger)
    }

    private func key(_ t: Double) -> ClientMessage { .key(key: "ArrowLeft", widget: "ruler", t: t) }

    private func lines(_ name: String) throws -> [String] {
        try String(contentsOfFile: dir.file(name), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("a file is closed 30 s after its last line (not before), and the next line is appended to the same file")
    func quietThenReopened() throws {
        traces.created(room: "r", scene: "ruler", seed: 7)
        traces.record(key(10), client: "c1", room: "r", roomTime: 1, now: 100)
        #expect(traces.openFiles == 1)
        traces.record(key(20), client: "c1", room: "r", roomTime: 11, now: 110)
        traces.closeQuiet(now: 139.9)
        #expect(traces.openFiles == 1, "29.9 s after the last line")
        traces.closeQuiet(now: 140)
        #expect(traces.openFiles == 0, "30 s after the last line")
        traces.record(key(30), client: "c1", room: "r", roomTime: 60, now: 160)
        #expect(traces.openFiles == 1)
        #expect(dir.entries == ["r.jsonl"], "no r-2.jsonl: this run's own file is reopened")
        let text = try lines("r.jsonl")
        #expect(text.prefix(2) == ["# scene: ruler", "# seed: 7"])
        #expect(text.filter { $0.hasPrefix("# ") }.count == 2, "the header once")
        let entries = try TraceParser.parse(text.joined(separator: "\n"), name: "r.jsonl")
        #expect(entries.map(\.at) == [1000, 11000, 60000], "one timeline, in order")
        traces.closeQuiet(now: 189.9)
        #expect(traces.openFiles == 1)
        traces.closeQuiet(now: 190)
        #expect(traces.openFiles == 0)
    }

    @Test("each room's file has its own 30 s: a sweep closes only those quiet that long")
    func perRoom() {
        for room in ["a", "b", "c"] { traces.created(room: room, scene: "ruler", seed: 1) }
        traces.record(key(1), client: "c1", room: "a", roomTime: 0, now: 0)
        traces.record(key(1), client: "c2", room: "b", roomTime: 0, now: 5)
        traces.record(key(1), client: "c3", room: "c", roomTime: 0, now: 20)
        traces.closeQuiet(now: 30)
        #expect(traces.openFiles == 2)
        traces.closeQuiet(now: 35)
        #expect(traces.openFiles == 1)
        traces.closeQuiet(now: 50)
        #expect(traces.openFiles == 0)
    }

    @Test("an evicted room's file is closed at once; the room made again records to a new file with its new seed")
    func evicted() throws {
        traces.created(room: "r", scene: "ruler", seed: 1)
        traces.record(key(1), client: "c1", room: "r", roomTime: 0, now: 0)
        traces.evicted("r")
        #expect(traces.openFiles == 0)
        traces.created(room: "r", scene: "ruler", seed: 2)
        traces.record(key(1), client: "c2", room: "r", roomTime: 0, now: 50)
        #expect(dir.entries == ["r-2.jsonl", "r.jsonl"])
        #expect(try lines("r-2.jsonl").prefix(2) == ["# scene: ruler", "# seed: 2"])
        #expect(try lines("r.jsonl").count == 3, "the first life's file is left as it was")
    }

    @Test("a file replaced or written to while closed is never appended to: recording stops, named in the log")
    func replacedWhileClosed() throws {
        traces.created(room: "r", scene: "ruler", seed: 1)
        traces.record(key(1), client: "c1", room: "r", roomTime: 0, now: 0)
        traces.closeQuiet(now: 30)
        try FileManager.default.removeItem(atPath: dir.file("r.jsonl"))
        try Data("someone else's\n".utf8).write(to: URL(fileURLWithPath: dir.file("r.jsonl")))
        traces.record(key(2), client: "c1", room: "r", roomTime: 40, now: 40)
        #expect(try lines("r.jsonl") == ["someone else's"])
        #expect(traces.openFiles == 0)
        #expect(log.text.contains("error trace recording stopped"), "\(log.text)")
        #expect(log.text.contains("was replaced or changed by another program"), "\(log.text)")

        traces.created(room: "s", scene: "ruler", seed: 1)
        traces.record(key(1), client: "c1", room: "s", roomTime: 0, now: 0)
        traces.closeQuiet(now: 30)
        let other = try #require(FileHandle(forWritingAtPath: dir.file("s.jsonl")))
        try other.seekToEnd()
        try other.write(contentsOf: Data("{\"t\":0}\n".utf8))
        try other.close()
        traces.record(key(2), client: "c1", room: "s", roomTime: 40, now: 40)
        #expect(try lines("s.jsonl").count == 4, "the header, the line, the other program's; nothing more")
    }

    @Test("a file of an earlier run is never appended to, whether this run's file is open or closed")
    func earlierRun() throws {
        try Data("# scene: ruler\n".utf8).write(to: URL(fileURLWithPath: dir.file("r.jsonl")))
        traces.created(room: "r", scene: "ruler", seed: 1)
        traces.record(key(1), client: "c1", room: "r", roomTime: 0, now: 0)
        traces.closeQuiet(now: 30)
        traces.record(key(2), client: "c1", room: "r", roomTime: 31, now: 31)
        #expect(try lines("r.jsonl") == ["# scene: ruler"])
        #expect(try lines("r-2.jsonl").count == 4)
    }
}

/// The switchboard's 1 s sweep closes quiet files; it runs while any is open.
@Suite("Switchboard closes quiet trace files on a fake clock")
struct SwitchboardTraceTests {
    @Test(
        "while a trace file is open the sweep runs each second; the one 30 s after the line closes it and asks for no more; evicting a room closes its file"
    )
    func sweepAndEviction() throws {
        let dir = try TemporaryDirectory()
        let h = try BoardHarness(maxRooms: 1, record: dir.path)
        h.join(1, room: "a")
        _ = h.read(1)
        h.send(1, ClientMessage.key(key: "ArrowLeft", widget: "ruler", t: 5).encoded())
        let traces = try #require(h.board.traces)
        #expect(traces.openFiles == 1)
        let sweepsBefore = h.wire.sweepsRequested.count
        h.runSweeps(for: 29)
        #expect(traces.openFiles == 1, "29 s after the line")
        #expect(
            h.wire.sweepsRequested.count == sweepsBefore + 29,
            "joined, holding nothing: each sweep asks for the next only because the file is open")
        h.runSweeps(for: 1)
        #expect(traces.openFiles == 0, "30 s after the line")
        let sweeps = h.wire.sweepsRequested.count
        h.runSweeps(for: 1)
        #expect(h.wire.sweepsRequested.count == sweeps, "nothing open, no pointer held: no sweep asked for")
        h.send(1, ClientMessage.key(key: "ArrowLeft", widget: "ruler", t: 40000).encoded())
        #expect(traces.openFiles == 1)
        #expect(dir.entries == ["a.jsonl"], "reopened, not a-2.jsonl")
        h.board.closed(1)
        h.join(2, room: "b")
        #expect(traces.openFiles == 0, "a was evicted to make way for b")
        h.send(2, ClientMessage.key(key: "ArrowLeft", widget: "ruler", t: 5).encoded())
        #expect(traces.openFiles == 1)
        #expect(dir.entries == ["a.jsonl", "b.jsonl"])
    }
}
