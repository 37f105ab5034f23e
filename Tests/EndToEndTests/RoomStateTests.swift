import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// Rooms that survive restarts (docs/STATE.md) against the real server: every
/// widget driven to rest, the server stopped (SIGTERM, or SIGKILL once the state file holds it),
/// started again on the same `--state`, and what a new client is told.
@Suite(.serialized) struct RoomStateTests {
    /// The demo room's widgets driven to rest, as the test set them.
    static let items = ["Moon", "Star", "Heart", "Leaf", "Kiwi", "Custom"]

    private func act(_ c: WireClient, _ widget: String, _ action: String, _ args: [String: JSONValue] = [:]) throws {
        try c.send(.action(.init(widget: widget, action: action, args: args, t: 1)))
    }

    /// Waits for the carousel's `type` event naming `name` at `index`.
    private func carouselEvent(_ c: WireClient, _ type: String, _ name: String, at index: Int) throws {
        _ = try c.waitFor("\(type) \(name) at \(index)") { m in
            (m["events"] as? [[String: Any]] ?? []).contains { e in
                e["widget"] as? String == "carousel" && e["type"] as? String == type && e["name"] as? String == name
                    && e["index"] as? Int == index
            }
        }
    }

    /// Every widget of the demo scene driven to rest: ruler 80.3, picker 37, the carousel's Sun
    /// deleted, Kiwi added and Star selected, the roller at 2027.
    private func settleDemo(_ c: WireClient) throws {
        try act(c, "ruler", "setValue", ["value": 80.3])
        #expect(try c.finalValue("ruler") == 80.3)
        try act(c, "picker", "setValue", ["value": 37])
        #expect(try c.finalValue("picker") == 37)
        // Star (index 2) is selected; Sun's going moves it to 1, Kiwi is added at 4 and centred.
        try act(c, "carousel", "delete", ["index": 0])
        try carouselEvent(c, "selected", "Star", at: 1)
        try act(c, "carousel", "add", ["name": "Kiwi"])
        try carouselEvent(c, "selected", "Kiwi", at: 4)
        try act(c, "carousel", "select", ["index": 1])
        try carouselEvent(c, "selected", "Star", at: 1)
        try act(c, "roller", "changeTo", ["n": 2026, "animated": false])
        #expect(try c.finalValue("roller") == 2026)
        try act(c, "rollerPlus1", "press")
        #expect(try c.finalValue("roller", timeout: 10) == 2027)
    }

    /// What a new client of `room` is told first: the scene's name and each widget's semantics.
    private func firstLook(_ server: ServerProcess, room: String) throws -> (
        scene: String, widgets: [String: [String: Any]]
    ) {
        let c = try WireClient(server, room: room)
        let welcome = try #require(c.messages.first { $0["type"] as? String == "welcome" })
        let scene = (welcome["scene"] as? [String: Any])?["name"] as? String ?? "?"
        return (scene, try c.nextSemantics())
    }

    private func expectSettledDemo(
        _ widgets: [String: [String: Any]], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(widgets["ruler"]?["valueNow"] as? Double == 80.3, sourceLocation: sourceLocation)
        #expect(widgets["readout"]?["valueText"] as? String == "80.3 kg", sourceLocation: sourceLocation)
        #expect(widgets["picker"]?["valueNow"] as? Double == 37, sourceLocation: sourceLocation)
        #expect(widgets["count"]?["valueText"] as? String == "37", sourceLocation: sourceLocation)
        let options = widgets["carousel"]?["options"] as? [[String: Any]] ?? []
        #expect(options.map { $0["label"] as? String ?? "?" } == Self.items, sourceLocation: sourceLocation)
        #expect(
            options.filter { $0["selected"] as? Bool == true }.map { $0["label"] as? String } == ["Star"],
            sourceLocation: sourceLocation)
        #expect(widgets["itemName"]?["valueText"] as? String == "Star", sourceLocation: sourceLocation)
        #expect(widgets["roller"]?["valueText"] as? String == "2027", sourceLocation: sourceLocation)
    }

    @Test("SIGTERM and a restart on the same file: a new client sees every settled value, the items and the selection")
    func restartAfterSigterm() throws {
        let file = try StateFile()
        let first = try ServerProcess(arguments: ["--state", file.path])
        let c = try WireClient(first, room: "keep")
        try settleDemo(c)
        // Another room, of another scene, idle since it was made: it keeps its scene too.
        let solo = try WireClient(first, room: "solo", scene: "roller")
        try act(solo, "roller", "changeTo", ["n": 7, "animated": false])
        #expect(try solo.finalValue("roller") == 7)
        first.stop()
        #expect(first.hasExited)

        let second = try ServerProcess(arguments: ["--state", file.path])
        #expect(second.hasLine { $0.contains("restored rooms") }, "\(second.output)")
        let keep = try firstLook(second, room: "keep")
        #expect(keep.scene == "demo")
        expectSettledDemo(keep.widgets)
        let back = try firstLook(second, room: "solo")
        #expect(back.scene == "roller")
        #expect(back.widgets["roller"]?["valueText"] as? String == "7")
        // Its scene is fixed as before the restart.
        let other = try WireClient(second, hello: false)
        try other.send(.hello(.init(room: "solo", scene: "ruler")))
        _ = try other.waitForError("scene_mismatch")
    }

    @Test("kill -9 once the file holds the settled state: a restart restores it")
    func restartAfterKill() throws {
        let file = try StateFile()
        let first = try ServerProcess(arguments: ["--state", file.path])
        let c = try WireClient(first, room: "crash")
        try settleDemo(c)
        try file.waitForSnapshot(room: "crash") { widgets in
            widgets["ruler"]?["value"] as? Double == 80.3 && widgets["roller"]?["number"] as? Double == 2027
                && widgets["carousel"]?["selected"] as? Double == 1
        }
        first.kill()

        let second = try ServerProcess(arguments: ["--state", file.path])
        expectSettledDemo(try firstLook(second, room: "crash").widgets)
    }

    /// Runs a server in `directory` with `arguments` (and the server's own default state when
    /// not `isolated`), settles the ruler at 80.3 in room "r" and stops it.
    private func settleRuler(in directory: URL, _ arguments: [String], isolated: Bool = true) throws {
        // Elsewhere than the package, the page must be named.
        let page = ["--public", PackagePaths.publicDirectory.path]
        let server = try ServerProcess(
            arguments: page + arguments, isolatedState: isolated, workingDirectory: directory.path)
        let c = try WireClient(server, room: "r")
        try act(c, "ruler", "setValue", ["value": 80.3])
        #expect(try c.finalValue("ruler") == 80.3)
        server.stop()
    }

    @Test("--state none writes no file")
    func noneWritesNothing() throws {
        let file = try StateFile()
        try settleRuler(in: file.directory, ["--state", "none"])
        #expect(file.entries == [])
    }

    @Test("without --state the file is widget-state.sqlite in the working directory")
    func defaultFile() throws {
        let file = try StateFile()
        try settleRuler(in: file.directory, [], isolated: false)
        // A clean stop checkpoints the write-ahead log into the file and removes it.
        #expect(file.entries == ["widget-state.sqlite"])
        #expect(file.snapshot(room: "r", file: "widget-state.sqlite").flatMap { $0["scene"] as? String } == "demo")
    }

    @Test("a room evicted at the room limit keeps its state: joined again, it comes back")
    func evictionKeepsState() throws {
        let file = try StateFile()
        let server = try ServerProcess(arguments: ["--state", file.path, "--max-rooms", "1"])
        var rulers: [Double] = []
        for (room, value) in [("a", 80.3), ("b", 64.2), ("a", 0), ("b", 0)] {
            // The server sees the previous client's close asynchronously: until then the room is full.
            let deadline = Date().addingTimeInterval(5)
            var c: WireClient?
            while c == nil && Date() < deadline { c = try? WireClient(server, room: room) }
            let client = try #require(c, "room \(room) was refused for 5 s")
            rulers.append(try #require(try client.nextSemantics()["ruler"]?["valueNow"] as? Double))
            if value > 0 {
                try act(client, "ruler", "setValue", ["value": .number(value)])
                #expect(try client.finalValue("ruler") == value)
            }
            client.socket.close()
        }
        #expect(rulers == [72.5, 72.5, 80.3, 64.2])
    }

    @Test("at start at most --max-rooms rooms are made; the others come back when joined")
    func restoreWithinTheRoomLimit() throws {
        let file = try StateFile()
        let first = try ServerProcess(arguments: ["--state", file.path])
        for (room, value) in [("r1", 10.0), ("r2", 20.0), ("r3", 30.0)] {
            let c = try WireClient(first, room: room)
            try act(c, "ruler", "setValue", ["value": .number(value)])
            #expect(try c.finalValue("ruler") == value)
        }
        first.stop()

        let second = try ServerProcess(arguments: ["--state", file.path, "--max-rooms", "2"])
        #expect(second.hasLine { $0.contains("rooms=2") && $0.contains("dormant=1") }, "\(second.output)")
        for (room, value) in [("r1", 10.0), ("r2", 20.0), ("r3", 30.0), ("r1", 10.0)] {
            let deadline = Date().addingTimeInterval(5)
            var c: WireClient?
            while c == nil && Date() < deadline { c = try? WireClient(second, room: room) }
            let client = try #require(c, "room \(room) was refused for 5 s")
            #expect(try client.nextSemantics()["ruler"]?["valueNow"] as? Double == value, "room \(room)")
            client.socket.close()
        }
    }

    @Test("stored rooms that do not fit are refused with their reason and start fresh; the others are restored")
    func refusedRooms() throws {
        let file = try StateFile()
        let first = try ServerProcess(arguments: ["--state", file.path])
        let c = try WireClient(first, room: "good")
        try act(c, "ruler", "setValue", ["value": 80.3])
        #expect(try c.finalValue("ruler") == 80.3)
        first.stop()
        let ruler = #"{"format":1,"scene":"ruler","widgets":{"ruler":{"value":80.3}}}"#
        try file.insert(room: "range", scene: "ruler", snapshot: ruler.replacingOccurrences(of: "80.3", with: "1000.5"))
        try file.insert(room: "gone", scene: "dial", snapshot: ruler)
        try file.insert(room: "../escape", scene: "ruler", snapshot: ruler)
        try file.insert(room: "text", scene: "ruler", snapshot: "{")

        let second = try ServerProcess(arguments: ["--state", file.path])
        for (room, reason) in [
            ("range", "ruler: value must be a finite number within 8.5…999.9"),
            ("gone", "no scene \"dial\""),
            ("../escape", "the room name is not 1–64 characters of A–Z, a–z, 0–9, _ or -"),
            ("text", "the snapshot is not JSON"),
        ] {
            #expect(
                second.hasLine { $0.contains("reason=\(reason)") && $0.contains("room=\(room)") }, "\(second.output)")
        }
        #expect(try firstLook(second, room: "good").widgets["ruler"]?["valueNow"] as? Double == 80.3)
        #expect(try firstLook(second, room: "range").widgets["ruler"]?["valueNow"] as? Double == 72.5)
        // Refused rows are removed from the store (by the writer, within its delay).
        let deadline = Date().addingTimeInterval(5)
        while file.rooms != ["good"] && Date() < deadline { usleep(10_000) }
        #expect(file.rooms == ["good"])
    }

    @Test("a corrupt state file is set aside and the server starts; one that cannot be made means no storage")
    func unusableFiles() throws {
        let file = try StateFile()
        try Data("not a database, just bytes".utf8).write(to: URL(fileURLWithPath: file.path))
        let server = try ServerProcess(arguments: ["--state", file.path])
        #expect(
            server.hasLine { $0.contains("the state file is unusable: set aside, starting with an empty store") },
            "\(server.output)")
        #expect(file.entries.contains { $0.hasPrefix("state.sqlite.corrupt-") }, "\(file.entries)")
        let c = try WireClient(server, room: "fresh")
        try act(c, "ruler", "setValue", ["value": 80.3])
        #expect(try c.finalValue("ruler") == 80.3)
        try file.waitForSnapshot(room: "fresh") { $0["ruler"]?["value"] as? Double == 80.3 }
        server.stop()

        let nowhere = try ServerProcess(arguments: [
            "--state", file.directory.appendingPathComponent("missing/state.sqlite").path,
        ])
        #expect(
            nowhere.hasLine { $0.contains("cannot open the state file; running without stored state") },
            "\(nowhere.output)")
        let d = try WireClient(nowhere, room: "r")
        try act(d, "ruler", "setValue", ["value": 80.3])
        #expect(try d.finalValue("ruler") == 80.3)
    }

    /// The server started on `file` as a user whom file modes bind: its exit and what it said.
    private func startWithoutFileOverride(_ file: StateFile) throws -> (ChildProcess.Exit?, String) {
        let command = Launcher.withoutFileOverride + [ServerProcess.binaryPath()]
        let child = try ChildProcess(
            executable: command[0],
            arguments: Array(command.dropFirst()) + ["--host", "127.0.0.1", "--port", "0", "--state", file.path])
        if !child.waitForExit(timeout: 10) { child.stop() }
        // Every line, once both pipes have ended.
        _ = child.output.waitForLine(timeout: 5) { _ in false }
        return (child.exit, child.output.text)
    }

    @Test(
        "a state file, -wal or directory that cannot be written (chmod 444, 444, 555): the server exits 1 naming the file and --state none, the file as it was"
    )
    func readOnlyState() throws {
        let file = try StateFile()
        let first = try ServerProcess(arguments: ["--state", file.path])
        let c = try WireClient(first, room: "kept")
        try act(c, "ruler", "setValue", ["value": 80.3])
        try file.waitForSnapshot(room: "kept") { $0["ruler"]?["value"] as? Double == 80.3 }
        first.stop()
        let refusal =
            "Error: the state file \(file.path) cannot be written: %@. Make it and its directory writable, or run with --state none to keep no state"
        let cases: [(what: String, path: String, mode: mode_t, reason: String)] = [
            ("the file", file.path, 0o444, "the file is read-only"),
            ("its -wal, left behind", file.path + "-wal", 0o444, "attempt to write a readonly database"),
            (
                "its directory", file.directory.path, 0o555,
                "its directory \(file.directory.path) cannot be written (Permission denied): SQLite keeps the -wal and -shm files there"
            ),
        ]
        for (what, path, mode, reason) in cases {
            if what.contains("-wal") { #expect(FileManager.default.createFile(atPath: path, contents: nil)) }
            #expect(chmod(path, mode) == 0)
            let (exit, output) = try startWithoutFileOverride(file)
            #expect(exit == .code(1), "\(what): \(output)")
            #expect(output.contains(refusal.replacingOccurrences(of: "%@", with: reason)), "\(what): \(output)")
            #expect(!output.contains("listening on"), "\(what)")
            #expect(chmod(path, what.contains("directory") ? 0o755 : 0o644) == 0)
            #expect(file.rooms == ["kept"], "\(what): the file as it was")
            #expect(!file.entries.contains { $0.contains(".corrupt-") }, "\(what): nothing set aside")
        }
    }
}
