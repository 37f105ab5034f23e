import Foundation
import LoopbackTools
import ScrollCore
import Testing

/// docs/PROTOCOL.md, "Handshake": which WebSocket upgrades the real server takes, and the
/// plain HTTP answer the others get at once (read off a raw socket).
@Suite struct HandshakeTests {
    static let own = "scroll-widgets"

    @Test("a page from another site gets 403 and a short text naming --allow-origin, then the connection closes")
    func foreignOrigin() throws {
        let server = try ServerProcess()
        let reply = try RawHTTP.upgrade(server, origin: "http://evil.example", protocols: Self.own)
        #expect(reply.status == 403, "\(reply.statusLine)")
        #expect(reply.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(reply.headers["x-content-type-options"] == "nosniff")
        #expect(reply.text.contains("http://evil.example") && reply.text.contains("--allow-origin"), "\(reply.text)")
        #expect(reply.headers["sec-websocket-accept"] == nil)
    }

    @Test(
        "the Upgrade header in any case is vetted alike: WebSocket and WEBSOCKET from another site get 403, without the subprotocol 400"
    )
    func upgradeInAnyCase() throws {
        let server = try ServerProcess()
        for spelling in ["WebSocket", "WEBSOCKET"] {
            let foreign = try RawHTTP.upgrade(
                server, origin: "http://evil.example", protocols: Self.own, upgrade: spelling)
            #expect(foreign.status == 403, "\(spelling): \(foreign.statusLine)")
            let bare = try RawHTTP.upgrade(server, origin: nil, protocols: nil, upgrade: spelling)
            #expect(bare.status == 400, "\(spelling): \(bare.statusLine)")
        }
    }

    @Test("the server's own origin (http:// + Host) and no Origin at all (not a browser) are let in")
    func ownOriginAndNone() throws {
        let server = try ServerProcess()
        for origin in ["http://127.0.0.1:\(server.port)", "HTTP://127.0.0.1:\(server.port)", nil] as [String?] {
            let reply = try RawHTTP.upgrade(server, origin: origin, protocols: Self.own)
            #expect(reply.status == 101, "Origin \(origin ?? "absent"): \(reply.statusLine)")
            #expect(reply.headers["sec-websocket-protocol"] == Self.own)
        }
        // Another port of the same host is another origin.
        let other = try RawHTTP.upgrade(server, origin: "http://127.0.0.1:\(server.port + 1)", protocols: Self.own)
        #expect(other.status == 403)
    }

    @Test(
        "a DNS-rebinding Host (a foreign name with a matching Origin) gets 403 naming --server-name; named, it is let in"
    )
    func rebindingHost() throws {
        func upgrade(_ server: ServerProcess, host: String) throws -> RawHTTP.Reply {
            let request =
                "GET / HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: \(Self.own)\r\n\r\n"
            return try RawHTTP.exchange(server, Array(request.utf8))
        }
        let server = try ServerProcess()
        let refused = try upgrade(server, host: "evil.example:\(server.port)")
        #expect(refused.status == 403, "\(refused.statusLine)")
        #expect(refused.text.contains("--server-name"), "\(refused.text)")
        #expect(try upgrade(server, host: "localhost:\(server.port)").status == 101)

        let named = try ServerProcess(arguments: ["--server-name", "widgets.example"])
        #expect(try upgrade(named, host: "widgets.example:\(named.port)").status == 101)
        #expect(try upgrade(named, host: "evil.example:\(named.port)").status == 403)
    }

    @Test(
        "HTTP/2 is never spoken: Upgrade h2c is answered over HTTP/1.1 (the page), HTTP/2 with prior knowledge refused")
    func noHTTP2() throws {
        let server = try ServerProcess()
        // With HTTP/2, a WebSocket (RFC 8441, extended CONNECT) would skip the Origin and
        // subprotocol checks: no HTTP/2 connection, no such WebSocket.
        let h2c = try RawHTTP.exchange(
            server,
            Array(
                ("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n").utf8))
        #expect(h2c.status == 200, "\(h2c.statusLine)")
        #expect(h2c.text.contains("<canvas"), "the page itself")
        #expect(h2c.headers["upgrade"] == nil)
        let prior = try RawHTTP.exchange(server, Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8))
        #expect(prior.statusLine.hasPrefix("HTTP/1"), "\(prior.statusLine)")
        #expect(prior.status != 101 && prior.status != 200, "\(prior.statusLine)")
    }

    @Test("--allow-origin admits the origins it names (repeatable), and only those")
    func allowOrigin() throws {
        let server = try ServerProcess(arguments: [
            "--allow-origin", "https://app.example", "--allow-origin", "http://localhost:3000",
        ])
        #expect(try RawHTTP.upgrade(server, origin: "https://app.example", protocols: Self.own).status == 101)
        #expect(try RawHTTP.upgrade(server, origin: "http://localhost:3000", protocols: Self.own).status == 101)
        #expect(try RawHTTP.upgrade(server, origin: "http://app.example", protocols: Self.own).status == 403)
        #expect(try RawHTTP.upgrade(server, origin: "http://evil.example", protocols: Self.own).status == 403)
        #expect(
            try RawHTTP.upgrade(server, origin: "http://127.0.0.1:\(server.port)", protocols: Self.own).status == 101)
    }

    @Test("--allow-origin '*' admits any origin")
    func allowAny() throws {
        let server = try ServerProcess(arguments: ["--allow-origin", "*"])
        #expect(try RawHTTP.upgrade(server, origin: "http://evil.example", protocols: Self.own).status == 101)
        #expect(try RawHTTP.upgrade(server, origin: "null", protocols: Self.own).status == 101)
    }

    @Test("--allow-origin with something that is not an origin: the server does not start, and says why")
    func badAllowOrigin() throws {
        #expect {
            _ = try ServerProcess(arguments: ["--allow-origin", "https://app.example/path"])
        } throws: { error in
            "\(error)".contains("--allow-origin") && "\(error)".contains("scheme://host[:port]")
        }
    }

    @Test("no subprotocol, or only unknown ones: 400 naming scroll-widgets at once (never a hang)")
    func subprotocol() throws {
        let server = try ServerProcess()
        for protocols in [nil, "chat", "chat, superchat"] as [String?] {
            let started = Date()
            // The deadline is the point: before, a request without the subprotocol hung.
            let reply = try RawHTTP.upgrade(server, origin: nil, protocols: protocols, timeout: 2)
            #expect(reply.status == 400, "\(protocols ?? "none"): \(reply.statusLine)")
            #expect(reply.text.contains("Sec-WebSocket-Protocol: scroll-widgets"), "\(reply.text)")
            #expect(Date().timeIntervalSince(started) < 1.5)
        }
        let both = try RawHTTP.upgrade(server, origin: nil, protocols: "chat, scroll-widgets")
        #expect(both.status == 101)
        #expect(both.headers["sec-websocket-protocol"] == Self.own)
    }

    @Test("refused upgrades do not disturb a client already in a room")
    func othersUnaffected() throws {
        let server = try ServerProcess()
        let c = try WireClient(server)
        for _ in 0..<20 {
            _ = try RawHTTP.upgrade(server, origin: "http://evil.example", protocols: Self.own)
            _ = try RawHTTP.upgrade(server, origin: nil, protocols: nil)
        }
        try c.drag(from: 300, by: -100)
        #expect(try c.finalValue() == 73.5)
        #expect(!server.hasExited)
    }
}
