import Foundation
import LoopbackTools
import ScrollCore
import Testing
import WebSocketClient

/// `hello.scene` against the real server: a room's scene is chosen when it is created.
@Suite struct SceneIntegrationTests {
    private func hello(_ c: WireClient, room: String, scene: String?) throws {
        try c.send(.hello(.init(room: room, scene: scene)))
    }

    private func welcome(_ server: ServerProcess, room: String, scene: String?) throws -> [String: Any] {
        let c = try WireClient(server, hello: false)
        try hello(c, room: room, scene: scene)
        return try c.waitFor("welcome") { $0["type"] as? String == "welcome" }
    }

    @Test("a room made with ?scene=ruler is the 390 × 300 ruler scene; a page naming no scene joins it")
    func rulerScene() throws {
        let server = try ServerProcess()
        let first = try #require(try welcome(server, room: "r", scene: "ruler")["scene"] as? [String: Any])
        #expect(first["name"] as? String == "ruler")
        #expect(first["width"] as? Double == 390 && first["height"] as? Double == 300)
        let second = try #require(try welcome(server, room: "r", scene: nil)["scene"] as? [String: Any])
        #expect(second["name"] as? String == "ruler")
    }

    @Test("without a scene a new room shows demo, 390 × 844")
    func defaultScene() throws {
        let server = try ServerProcess()
        let scene = try #require(try welcome(server, room: "d", scene: nil)["scene"] as? [String: Any])
        #expect(scene["name"] as? String == "demo")
        #expect(scene["width"] as? Double == 390 && scene["height"] as? Double == 844)
    }

    @Test("an unknown scene is refused, fatally, naming the scenes there are")
    func unknownScene() throws {
        let server = try ServerProcess()
        let c = try WireClient(server, hello: false)
        try hello(c, room: "u", scene: "carousel9")
        let e = try c.waitForError("unknown_scene")
        #expect(e["fatal"] as? Bool == true)
        #expect(
            e["message"] as? String
                == "no scene \"carousel9\" (scenes: demo, ruler, picker, picker-free, carousel, roller)")
    }

    @Test("naming another scene than the room's is refused; the room keeps its scene and its state")
    func sceneMismatch() throws {
        let server = try ServerProcess()
        let owner = try WireClient(server, hello: false)
        try hello(owner, room: "m", scene: "ruler")
        _ = try owner.waitFor("welcome") { $0["type"] as? String == "welcome" }
        let late = try WireClient(server, hello: false)
        try hello(late, room: "m", scene: "demo")
        let e = try late.waitForError("scene_mismatch")
        #expect(e["fatal"] as? Bool == true)
        #expect((e["message"] as? String)?.contains("shows scene \"ruler\"") == true)
        try owner.drag(from: 300, by: -100)
        #expect(try owner.finalValue() == 73.5)
    }
}
