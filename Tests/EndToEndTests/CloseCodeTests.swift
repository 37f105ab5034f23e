import Foundation
import ScrollCore
import Testing
import WebSocketClient

/// docs/PROTOCOL.md, "Close codes": each RFC 6455 code the server closes with, read off the
/// close frame by a raw client.
@Suite struct CloseCodeTests {
    @Test("a 1 MiB message: too_large (fatal), then close 1009; another client carries on")
    func messageTooBig() throws {
        let server = try ServerProcess()
        let other = try WireClient(server, room: "big")
        let s = try RawWireSocket(server)
        try s.join(room: "big")
        let payload =
            Array(#"{"type":"ping","t":1,"pad":""#.utf8) + [UInt8](repeating: 0x78, count: 1 << 20) + Array(#""}"#.utf8)
        // The server may close before it has read it all: a failed send is expected then.
        try? s.sendFrame(opcode: 0x1, payload: payload)
        let backlog = s.readAll(timeout: 5)
        #expect(
            backlog.closeCode == 1009, "close: \(backlog.closeCode.map(String.init) ?? "none") \(backlog.closeReason)")
        let error = backlog.texts.compactMap(Self.json).first { $0["type"] as? String == "error" }
        #expect(error?["code"] as? String == "too_large")
        #expect(error?["fatal"] as? Bool == true)
        try other.drag(from: 300, by: -100)
        #expect(try other.finalValue() == 73.5)
    }

    @Test("just over the cap (16 KiB + 1, in two fragments) closes with 1009 too; 16 KiB exactly does not")
    func capBoundary() throws {
        let cap = 16 * 1024  // docs/PROTOCOL.md: "a message is at most 16 KiB"
        let server = try ServerProcess()
        func ping(size: Int) -> [UInt8] {
            let head = Array(#"{"type":"ping","t":7,"pad":""#.utf8), tail = Array(#""}"#.utf8)
            return head + [UInt8](repeating: 0x78, count: size - head.count - tail.count) + tail
        }
        let fits = try RawWireSocket(server)
        try fits.sendFrame(opcode: 0x1, payload: ping(size: cap))
        let answered = fits.readAll(quiet: 0.5, timeout: 3)
        #expect(!answered.closed)
        #expect(answered.texts.contains { $0.contains(#""type":"pong""#) }, "\(answered.texts)")

        let over = try RawWireSocket(server)
        let message = ping(size: cap + 1)
        try over.sendFrame(opcode: 0x1, payload: Array(message[..<9000]), fin: false)
        try? over.sendFrame(opcode: 0x0, payload: Array(message[9000...]))
        #expect(over.readAll(timeout: 3).closeCode == 1009)
    }

    @Test("text that is not UTF-8 closes with 1007")
    func invalidUTF8() throws {
        let server = try ServerProcess()
        let s = try RawWireSocket(server)
        try s.join(room: "utf8")
        try s.sendFrame(
            opcode: 0x1, payload: Array(#"{"type":"ping","t":1,"x":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8))
        let backlog = s.readAll(timeout: 3)
        #expect(
            backlog.closeCode == 1007, "close: \(backlog.closeCode.map(String.init) ?? "none") \(backlog.closeReason)")
    }

    @Test("another protocol version: protocol_mismatch, then close 1008")
    func protocolMismatch() throws {
        let server = try ServerProcess()
        let s = try RawWireSocket(server)
        try s.send(["type": "hello", "protocol": 99])
        let backlog = s.readAll(timeout: 3)
        #expect(backlog.closeCode == 1008)
        #expect(backlog.closeReason == "protocol_mismatch")
    }

    @Test("server full (--max-clients): server_full, then close 1013 (try again later)")
    func serverFull() throws {
        let server = try ServerProcess(arguments: ["--max-clients", "1"])
        let first = try WireClient(server)
        let s = try RawWireSocket(server)
        let backlog = s.readAll(timeout: 3)
        #expect(backlog.closeCode == 1013, "close: \(backlog.closeCode.map(String.init) ?? "none")")
        #expect(backlog.texts.contains { $0.contains(#""code":"server_full""#) })
        try first.drag(from: 300, by: -100)
        #expect(try first.finalValue() == 73.5)
    }

    @Test(
        "SIGTERM and SIGINT: each of 3 clients gets close 1001 going away; the server exits 0 within 2 s",
        arguments: [SIGTERM, SIGINT])
    func goingAway(signal: Int32) throws {
        let server = try ServerProcess()
        let clients = try (0..<3).map { _ in try WireClient(server, room: "stop") }
        try clients[0].pointer("down", x: 300, t: 1)  // a gesture in flight must not hold the stop up
        for c in clients { try c.receiveUntilIdle(quiet: 0.2) }
        let sent = Date()
        server.send(signal: signal)
        for c in clients {
            #expect(throws: WebSocketError.closed(code: 1001, reason: "going away")) {
                while try c.socket.receive(timeout: 2) != nil {}
                throw WireError("no close within 2 s")
            }
        }
        #expect(server.waitForExit(timeout: 2 - Date().timeIntervalSince(sent)), "still running 2 s after the signal")
        #expect(server.exit == .code(0))
        #expect(server.output.contains("shut down"))
    }

    @Test("a client that never answers the close holds the stop up at most the grace (about 1 s)")
    func silentClient() throws {
        let server = try ServerProcess()
        let silent = try RawWireSocket(server)
        try silent.join(room: "silent")
        let sent = Date()
        server.send(signal: SIGTERM)
        #expect(server.waitForExit(timeout: 2))
        #expect(Date().timeIntervalSince(sent) < 2)
        #expect(server.exit == .code(0))
        #expect(silent.readAll(timeout: 1).closeCode == 1001)
    }

    static func json(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }
}
