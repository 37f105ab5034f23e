import Foundation
import Glibc
import LoopbackTools

/// One HTTP/1.1 request written byte for byte as given, and the answer as it came: for what
/// no client library sends (paths like `/..%5c`, upgrade requests with chosen headers).
enum RawHTTP {
    struct Reply {
        /// nil: the server closed the connection without answering.
        var status: Int?
        var statusLine = ""
        /// Lower-case names.
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends `request` (CRLFs included) to the server and reads the answer: for 101 only the
    /// head, otherwise the Content-Length body; all within `timeout` s.
    static func exchange(_ server: ServerProcess, _ request: [UInt8], timeout: Double = 2) throws -> Reply {
        try exchange(port: server.port, request, timeout: timeout)
    }

    /// The same with whatever listens on `port` (the server's operations listener).
    static func exchange(port: Int, _ request: [UInt8], timeout: Double = 2) throws -> Reply {
        let fd = try LoopbackSocket.connect(port: port, timeout: timeout)
        defer { Glibc.close(fd) }
        try LoopbackSocket.write(fd, request)
        let deadline = Date().addingTimeInterval(timeout)
        var inbound: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var reply = Reply()
        while true {
            if headEnd == nil, let at = find(end, in: inbound) {
                headEnd = at + end.count
                let lines = String(decoding: inbound[..<at], as: UTF8.self).components(separatedBy: "\r\n")
                reply.statusLine = lines[0]
                reply.status = Int(lines[0].split(separator: " ").dropFirst().first ?? "")
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    reply.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                if reply.status == 101 { return reply }
            }
            if let headEnd, let length = reply.headers["content-length"].flatMap({ Int($0) }),
                inbound.count - headEnd >= length
            {
                reply.body = Array(inbound[headEnd..<headEnd + length])
                return reply
            }
            let more: Bool
            do {
                more = try LoopbackSocket.read(fd, into: &inbound, deadline: deadline)
            } catch {
                // Closed: whatever came is the answer (none at all if no head).
                if let headEnd { reply.body = Array(inbound[headEnd...]) }
                return reply
            }
            guard more else { throw WireError("no complete answer within \(timeout) s (got \(inbound.count) bytes)") }
        }
    }

    /// A GET (or another method) for `path`, exactly as written, closing the connection after.
    static func request(_ server: ServerProcess, _ path: String, method: String = "GET") throws -> Reply {
        try request(port: server.port, path, method: method)
    }

    static func request(port: Int, _ path: String, method: String = "GET") throws -> Reply {
        try exchange(
            port: port, Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        )
    }

    /// A WebSocket upgrade request with the given `Origin` and `Sec-WebSocket-Protocol` (nil: none),
    /// to the server's public port or to `port`.
    static func upgrade(
        _ server: ServerProcess, port: Int? = nil, origin: String?, protocols: String?, upgrade: String = "websocket",
        timeout: Double = 2
    ) throws -> Reply {
        let port = port ?? server.port
        var request =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: \(upgrade)\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        if let protocols { request += "Sec-WebSocket-Protocol: \(protocols)\r\n" }
        return try exchange(port: port, Array((request + "\r\n").utf8), timeout: timeout)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...haystack.count - needle.count).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
