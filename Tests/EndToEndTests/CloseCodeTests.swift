import Foundation
import LoopbackTools
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

    @Test("a connection that never says hello: not_ready (fatal) and close 1008 about 10 s after it opened")
    func helloDeadline() throws {
        let server = try ServerProcess()
        let s = try RawWireSocket(server)
        let opened = Date()
        // Nothing sent: the server's 1 s sweep closes it once 10 s have passed (smoke; the rule's
        // exact times are SwitchboardPolicyTests.helloDeadline's).
        let backlog = s.readAll(quiet: 20, timeout: 20)
        let after = Date().timeIntervalSince(opened)
        #expect(backlog.closeCode == 1008, "close: \(backlog.closeCode.map(String.init) ?? "none") after \(after) s")
        let error = backlog.texts.compactMap(Self.json).first { $0["type"] as? String == "error" }
        #expect(error?["code"] as? String == "not_ready")
        #expect(after >= 9.5, "closed after \(after) s")
    }

    @Test(
        "an unmasked client frame (RFC 6455 §5.1 says close) is read as if masked: libwebsockets 4.1.6 cannot be told to refuse it; nothing breaks"
    )
    func unmaskedFrame() throws {
        let server = try ServerProcess()
        let other = try WireClient(server, room: "mask")
        let s = try RawWireSocket(server)
        try s.join(room: "mask")
        // lws reads the mask bit and unmasks only masked frames, with no option to refuse the others
        // (docs/RELIABILITY.md). Browsers always mask, so no page can send one.
        try s.sendFrame(opcode: 0x1, payload: Array(ClientMessage.ping(t: 7).encoded().utf8), masked: false)
        let backlog = s.readAll(quiet: 0.5, timeout: 5)
        #expect(backlog.texts.contains { $0.contains(#""type":"pong""#) && $0.contains(#""t":7"#) })
        try other.drag(from: 300, by: -100)
        #expect(try other.finalValue() == 73.5)
        #expect(!server.hasExited)
    }

    @Test("another protocol version: protocol_mismatch, then close 1008")
    func protocolMismatch() throws {
        let server = try ServerProcess()
        let s = try RawWireSocket(server)
        try s.send(.hello(.init(version: 99)))
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
        try clients[0].pointer(.down, x: 300, t: 1)  // a gesture in flight must not hold the stop up
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

    @Test("a client whose socket is full (it stopped reading) holds the stop up at most the grace, about 1 s")
    func stuckClient() throws {
        let server = try ServerProcess()
        let stuck = try Self.stuckClient(of: server)
        let sent = Date()
        server.send(signal: SIGTERM)
        #expect(server.waitForExit(timeout: 2.5))
        let took = Date().timeIntervalSince(sent)
        #expect(took < 2 && took > 0.8, "stopped after \(took) s")
        #expect(server.exit == .code(0))
        #expect(server.output.contains("unanswered=1"), "\(server.output.suffix(400))")
        _ = stuck
    }

    /// A client of `server` whose socket is full: it reads nothing, and each theme change it asks
    /// for buys a full frame, until the kernel's send queue on the server's end stops growing. A
    /// close frame to it cannot be written, so a stop waits the grace for it.
    static func stuckClient(of server: ServerProcess) throws -> RawWireSocket {
        let stuck = try RawWireSocket(server, stingy: true)
        try stuck.join(room: "stuck")
        // 30 s: a sanitized server on a loaded machine was still filling it after 10.
        let deadline = Date().addingTimeInterval(30)
        var theme = "dark", peak = 0, sinceGrowth = 0
        while sinceGrowth < 50 || peak < 8 * 1024 {
            try #require(Date() < deadline, "the server's send queue to the stuck client never filled (\(peak) B)")
            try stuck.send(.preferences(theme: theme, reducedMotion: nil))
            theme = theme == "dark" ? "light" : "dark"
            usleep(2000)
            let queued = sendQueue(from: server.port, to: stuck.localPort) ?? 0
            sinceGrowth = queued > peak ? 0 : sinceGrowth + 1
            peak = max(peak, queued)
        }
        return stuck
    }

    /// Bytes the kernel holds unsent or unacknowledged on the loopback connection from port
    /// `local` to port `remote` (/proc/net/tcp's tx_queue); nil if there is no such connection.
    static func sendQueue(from local: Int, to remote: Int) -> Int? {
        // Read to the end: String(contentsOfFile:) stops after the first page of a /proc file.
        guard let file = FileHandle(forReadingAtPath: "/proc/net/tcp"), let data = try? file.readToEnd() else {
            return nil
        }
        let table = String(decoding: data, as: UTF8.self)
        let ends = (String(format: ":%04X", local), String(format: ":%04X", remote))
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[1].hasSuffix(ends.0), fields[2].hasSuffix(ends.1) else { continue }
            return Int(fields[4].split(separator: ":")[0], radix: 16)
        }
        return nil
    }

    static func json(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }
}
