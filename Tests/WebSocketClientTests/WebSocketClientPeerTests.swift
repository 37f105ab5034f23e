import Foundation
import Glibc
import Testing
import WebSocketClient

/// The client against a scripted peer (ScriptedServer): RFC 6455 behaviour real servers rarely
/// show, and the plain HTTP GET.
@Suite struct WebSocketClientPeerTests {
    @Test func acceptValueMatchesTheRFCExample() {
        #expect(WebSocketClient.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func reassemblesFragmentsAndAnswersAnInterleavedPing() throws {
        // "ö" is split across two fragments: validation must wait for the whole message.
        let text = Array("Hello, wörld".utf8)
        let server = try ScriptedServer { peer in
            try peer.acceptWebSocket()
            try peer.writeFrame(opcode: 0x1, fin: false, payload: Array(text[0..<3]))
            try peer.writeFrame(opcode: 0x9, payload: Array("p1".utf8))
            try peer.writeFrame(opcode: 0x0, fin: false, payload: Array(text[3..<9]))
            try peer.writeFrame(opcode: 0x0, fin: true, payload: Array(text[9...]))
            return try peer.readFrame()
        }
        let socket = try WebSocketClient(url: server.url)
        #expect(try socket.receive(timeout: 5) == .text("Hello, wörld"))
        let pong = try server.result()
        #expect(pong.opcode == 0xA && pong.payload == Array("p1".utf8))
    }

    @Test func binaryMessagesOfEveryLengthEncodingRoundTrip() throws {
        let sizes = [0, 125, 126, 65_535, 65_536, 300_000]
        let server = try ScriptedServer { peer in
            try peer.acceptWebSocket()
            for _ in sizes {
                let frame = try peer.readFrame()
                try peer.writeFrame(opcode: frame.opcode, payload: frame.payload)
            }
        }
        let socket = try WebSocketClient(url: server.url)
        for size in sizes {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try socket.send(binary: payload)
            #expect(try socket.receive(timeout: 5) == .binary(payload), "size \(size)")
        }
        try server.result()
    }

    @Test func aCloseFrameFromTheServerIsAnsweredAndThrown() throws {
        let server = try ScriptedServer { peer in
            try peer.acceptWebSocket()
            try peer.writeFrame(opcode: 0x8, payload: [0x0F, 0xA1] + Array("bye".utf8))
            return try peer.readFrame()
        }
        let socket = try WebSocketClient(url: server.url)
        #expect(throws: WebSocketError.closed(code: 4001, reason: "bye")) { try socket.receive(timeout: 5) }
        #expect(throws: WebSocketError.closed(code: 4001, reason: "bye")) { try socket.send(text: "late") }
        let echo = try server.result()
        #expect(echo.opcode == 0x8 && echo.payload == [0x0F, 0xA1])
    }

    @Test func receiveTimesOutQuietlyAndCloseSendsNormalClosure() throws {
        let server = try ScriptedServer { peer in
            try peer.acceptWebSocket()
            return try peer.readFrame()
        }
        let socket = try WebSocketClient(url: server.url)
        #expect(try socket.receive(timeout: 0.2) == nil)
        socket.close()
        let close = try server.result()
        #expect(close.opcode == 0x8 && close.payload == [0x03, 0xE8])
    }

    @Test func aMaskedServerFrameIsAProtocolViolation() throws {
        let server = try ScriptedServer { peer in
            try peer.acceptWebSocket()
            try peer.write([0x81, 0x82, 1, 2, 3, 4, 0x68 ^ 1, 0x69 ^ 2])
        }
        let socket = try WebSocketClient(url: server.url)
        #expect {
            try socket.receive(timeout: 5)
        } throws: { error in
            if case .protocolViolation? = error as? WebSocketError { return true }
            return false
        }
        try server.result()
    }

    /// Also connects by name: "localhost" may resolve to ::1 first, where nothing listens.
    @Test func handshakeRejectionCarriesTheStatusLine() throws {
        let server = try ScriptedServer { peer in
            let request = try peer.readRequestHead()
            try peer.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            return request
        }
        #expect(throws: WebSocketError.handshakeRejected(statusLine: "HTTP/1.1 404 Not Found")) {
            try WebSocketClient(url: "ws://localhost:\(server.port)/socket?room=1", subprotocol: "scroll-widgets")
        }
        let request = try server.result()
        #expect(request.requestLine == "GET /socket?room=1 HTTP/1.1")
        #expect(request.headers["host"] == "localhost:\(server.port)")
        #expect(request.headers["sec-websocket-protocol"] == "scroll-widgets")
        #expect(request.headers["sec-websocket-version"] == "13")
        #expect(request.headers["origin"] == nil)
    }

    @Test func theRequestedSubprotocolMustBeSelected() throws {
        let agreeing = try ScriptedServer { peer in try peer.acceptWebSocket(subprotocol: "scroll-widgets") }
        let socket = try WebSocketClient(url: agreeing.url, subprotocol: "scroll-widgets")
        #expect(socket.negotiatedSubprotocol == "scroll-widgets")

        let ignoring = try ScriptedServer { peer in try peer.acceptWebSocket() }
        #expect {
            try WebSocketClient(url: ignoring.url, subprotocol: "scroll-widgets")
        } throws: { error in
            if case .protocolViolation? = error as? WebSocketError { return true }
            return false
        }
        try agreeing.result()
        try ignoring.result()
    }

    @Test func connectingToAClosedPortFails() throws {
        let listener = try PeerConnection.listen()
        close(listener.fd)
        #expect {
            try WebSocketClient(url: "ws://127.0.0.1:\(listener.port)/", timeout: 2)
        } throws: { error in
            if case .connectFailed? = error as? WebSocketError { return true }
            return false
        }
    }

    @Test func httpGetReadsContentLengthAndChunkedBodies() throws {
        let plain = try ScriptedServer { peer in
            let request = try peer.readRequestHead()
            try peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello")
            return request
        }
        let response = try WebSocketClient.httpGet(url: "http://127.0.0.1:\(plain.port)/index.html?x=1", timeout: 5)
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/html")
        #expect(response.body == Array("hello".utf8))
        let request = try plain.result()
        #expect(request.requestLine == "GET /index.html?x=1 HTTP/1.1")
        #expect(request.headers["connection"] == "close")

        let chunked = try ScriptedServer { peer in
            _ = try peer.readRequestHead()
            try peer.write(
                "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n")
        }
        let missing = try WebSocketClient.httpGet(url: "http://127.0.0.1:\(chunked.port)/", timeout: 5)
        #expect(missing.status == 404)
        #expect(missing.body == Array("hello, world".utf8))
        try chunked.result()
    }
}
