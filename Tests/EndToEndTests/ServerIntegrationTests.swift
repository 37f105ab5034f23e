import Foundation
import ScrollCore
import Testing
import WebSocketClient

/// The real `ruler-server` on a loopback port, real WebSocket clients.
@Suite struct ServerIntegrationTests {
    @Test func servesThePageAndScripts() throws {
        let server = try ServerProcess()
        let page = try WebSocketClient.httpGet(url: server.httpURL, timeout: 5)
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<canvas"))
        #expect(!html.contains("<script>"), "no inline script: the page must work under a strict CSP")
        let js = try WebSocketClient.httpGet(url: server.httpURL + "js/app.js", timeout: 5)
        #expect(js.status == 200)
        #expect(try WebSocketClient.httpGet(url: server.httpURL + "nope.js", timeout: 5).status == 404)
    }

    @Test("welcome, semantics and a full first frame with the ruler's layer")
    func joinRoom() throws {
        let server = try ServerProcess()
        let c = try WireClient(server)
        let semantics = try c.waitFor("semantics") { $0["type"] as? String == "semantics" }
        let widgets = try #require(semantics["widgets"] as? [[String: Any]])
        let ruler = try #require(widgets.first { $0["id"] as? String == "ruler" })
        #expect(ruler["role"] as? String == "slider")
        #expect(ruler["valueNow"] as? Double == 72.5)
        let frame = try DecodedFrame(try c.waitForBinary())
        #expect(!frame.isDelta)
        #expect(frame.version == UInt8(ProtocolVersion.current))
        #expect(frame.layers.count == 3)
        #expect(frame.layers.allSatisfy { $0.ops != nil })
    }

    @Test("dragging the ruler left by 100 pt reports 73.5 once, as the final value")
    func dragReportsValue() throws {
        let server = try ServerProcess()
        let c = try WireClient(server)
        try c.drag(from: 300, by: -100)
        #expect(try c.finalValue() == 73.5)
        try c.waitForSemantics("ruler", value: 73.5)
    }

    @Test("clients of one room drive the same ruler; another room is untouched")
    func rooms() throws {
        let server = try ServerProcess()
        let a = try WireClient(server, room: "demo")
        let b = try WireClient(server, room: "demo")
        let other = try WireClient(server, room: "elsewhere")
        try a.drag(from: 300, by: -50)
        #expect(try a.finalValue() == 73.0)
        #expect(try b.finalValue() == 73.0)
        try b.drag(from: 100, by: 200)
        #expect(try a.finalValue() == 71.0)
        try other.drag(from: 300, by: -10)
        #expect(try other.finalValue() == 72.6)
    }

    @Test("bad input gets a documented error and the connection stays usable")
    func badInput() throws {
        let server = try ServerProcess()
        let early = try WireClient(server, hello: false)
        try early.pointer("down", x: 1, t: 1)
        _ = try early.waitForError("not_ready")

        let c = try WireClient(server)
        try c.socket.send(text: "{oops")
        _ = try c.waitForError("bad_json")
        try c.send(["type": "teleport"])
        _ = try c.waitForError("unknown_type")
        try c.send(["type": "pointer", "phase": "down", "id": 1, "x": "left", "y": 1, "t": 1])
        let e = try c.waitForError("bad_message")
        #expect((e["message"] as? String)?.contains("pointer.x") == true)
        try c.socket.send(binary: [1, 2, 3])
        _ = try c.waitForError("unsupported")
        try c.socket.send(text: #"{"type":"ping","t":1,"pad":""# + String(repeating: "x", count: 20_000) + #""}"#)
        _ = try c.waitForError("too_large")
        try c.send(["type": "hello", "protocol": 1])
        _ = try c.waitForError("bad_message")
        try c.send(["type": "ping", "t": 42])
        let pong = try c.waitFor("pong") { $0["type"] as? String == "pong" }
        #expect(pong["t"] as? Double == 42)
        try c.drag(from: 300, by: -100)
        #expect(try c.finalValue() == 73.5)
    }

    @Test("a page speaking another protocol version is told so, then closed")
    func versionMismatch() throws {
        let server = try ServerProcess()
        let c = try WireClient(server, hello: false)
        try c.send(["type": "hello", "protocol": 99])
        let e = try c.waitForError("protocol_mismatch")
        #expect(e["fatal"] as? Bool == true)
        #expect((e["message"] as? String)?.contains("99") == true)
        #expect(throws: WebSocketError.self) { _ = try c.socket.receive(timeout: 5) }
    }

    @Test("a broken connection mid-drag does not hurt the server or the room")
    func brokenConnection() throws {
        let server = try ServerProcess()
        let observer = try WireClient(server, room: "r")
        do {
            let quitter = try WireClient(server, room: "r")
            try quitter.pointer("down", x: 300, t: 1)
            try quitter.pointer("move", x: 250, t: 20)
            quitter.socket.close()
        }
        // The abandoned drag is cancelled and revised: 50 pt → 73.0.
        #expect(try observer.finalValue() == 73.0)
        try observer.drag(from: 300, by: -10)
        #expect(try observer.finalValue() == 73.1)
        #expect(!server.hasExited)
    }

    @Test("a flooding client is rate-limited; others are unaffected")
    func flood() throws {
        let server = try ServerProcess()
        let flooder = try WireClient(server, room: "flood")
        let calm = try WireClient(server, room: "flood")
        for i in 0..<3000 { try flooder.send(["type": "ping", "t": i]) }
        _ = try flooder.waitForError("rate_limited")
        try calm.drag(from: 300, by: -100)
        #expect(try calm.finalValue() == 73.5)
    }

    @Test("an idle room sends nothing")
    func idleIsSilent() throws {
        let server = try ServerProcess()
        let c = try WireClient(server)
        try c.drag(from: 300, by: -100)
        _ = try c.finalValue()
        // Drain what the settle produced (semantics, last frame), then expect silence.
        while try c.socket.receive(timeout: 0.3) != nil {}
        #expect(try c.socket.receive(timeout: 0.5) == nil)
    }
}
