import Foundation
import Glibc
import WebSocketClient

/// A one-connection TCP server on 127.0.0.1 whose side of the conversation is a script
/// run on its own thread: for testing `WebSocketClient` against behaviour real servers
/// rarely show (fragmentation, interleaved pings, close codes, rejected handshakes).
// @unchecked Sendable: `outcome` is written once by the script thread before it signals
// `finished`, and read by the test thread only after waiting on it.
final class ScriptedServer<Value: Sendable>: @unchecked Sendable {
    let port: Int
    var url: String { "ws://127.0.0.1:\(port)/" }
    private let finished = DispatchSemaphore(value: 0)
    private var outcome: Result<Value, Error>?

    init(script: @escaping @Sendable (PeerConnection) throws -> Value) throws {
        let listener = try PeerConnection.listen()
        port = listener.port
        let thread = Thread { [self] in
            outcome = Result {
                defer { Glibc.close(listener.fd) }
                let peer = try PeerConnection(acceptingOn: listener.fd)
                return try script(peer)
            }
            finished.signal()
        }
        thread.name = "ScriptedServer"
        thread.start()
    }

    /// Waits for the script to finish and returns what it returned (or rethrows).
    @discardableResult
    func result(timeout: Double = 10) throws -> Value {
        guard finished.wait(timeout: .now() + timeout) == .success, let outcome else {
            throw PeerError("timed out waiting \(timeout)s for the scripted server to finish")
        }
        finished.signal()  // let a second call see the same outcome
        return try outcome.get()
    }
}

/// The server side of one accepted connection, with blocking calls bounded by
/// SO_RCVTIMEO/SO_SNDTIMEO.
final class PeerConnection {
    struct Frame {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]
    }

    /// Bounds every blocking socket call of a script, so a test can never hang.
    static let ioTimeoutSeconds = 5

    private let fd: Int32
    private var buffer: [UInt8] = []

    static func listen() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw PeerError("socket: \(String(cString: strerror(errno)))") }
        setTimeouts(fd)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && Glibc.listen(fd, 1) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(fd)
            throw PeerError("bind/listen: \(String(cString: strerror(errno)))")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Accepts one connection (SO_RCVTIMEO bounds accept too, on Linux).
    init(acceptingOn listener: Int32) throws {
        fd = accept(listener, nil, nil)
        guard fd >= 0 else { throw PeerError("accept: \(String(cString: strerror(errno)))") }
        // Keep it out of processes other tests spawn meanwhile (accept4 is not imported).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        Self.setTimeouts(fd)
    }

    deinit { Glibc.close(fd) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw PeerError("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Reads an HTTP request head; returns its request line and lower-cased headers.
    func readRequestHead() throws -> (requestLine: String, headers: [String: String]) {
        let terminator = Array("\r\n\r\n".utf8)
        while true {
            if let end = (0..<max(buffer.count - 3, 0)).first(where: { Array(buffer[$0..<$0 + 4]) == terminator }) {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(..<(end + 4))
                var lines = text.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst()
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                return (requestLine, headers)
            }
            try fill()
        }
    }

    /// Reads the upgrade request and answers 101, selecting `subprotocol` if given.
    @discardableResult
    func acceptWebSocket(subprotocol: String? = nil) throws -> [String: String] {
        let (_, headers) = try readRequestHead()
        guard let key = headers["sec-websocket-key"] else { throw PeerError("no Sec-WebSocket-Key") }
        var response =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketClient.acceptValue(forKey: key))\r\n"
        if let subprotocol { response += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        try write(response + "\r\n")
        return headers
    }

    /// Writes one unmasked frame, as a server does (the codec's bytes are checked byte for byte
    /// in FrameTests).
    func writeFrame(opcode: UInt8, fin: Bool = true, payload: [UInt8]) throws {
        try write(WebSocketClient.Frame.encode(fin: fin, opcode: opcode, payload: payload, masked: false))
    }

    /// Reads one frame, which must be masked as a client's are, and unmasks it: read here
    /// independently of the client's codec, which it checks.
    func readFrame() throws -> Frame {
        try need(2)
        let fin = buffer[0] & 0x80 != 0, opcode = buffer[0] & 0x0F
        guard buffer[1] & 0x80 != 0 else { throw PeerError("client frame not masked") }
        var length = Int(buffer[1] & 0x7F), header = 2
        if length == 126 {
            try need(4)
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            try need(10)
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            header = 10
        }
        try need(header + 4 + length)
        let mask = Array(buffer[header..<header + 4])
        let payload = buffer[(header + 4)..<(header + 4 + length)].enumerated().map { $0.element ^ mask[$0.offset & 3] }
        buffer.removeSubrange(..<(header + 4 + length))
        return Frame(fin: fin, opcode: opcode, payload: payload)
    }

    private func need(_ count: Int) throws {
        while buffer.count < count { try fill() }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            throw PeerError(
                count == 0 ? "client closed the connection" : "recv: \(String(cString: strerror(errno)))")
        }
        buffer += chunk[..<count]
    }

    private static func setTimeouts(_ fd: Int32) {
        var timeout = timeval(tv_sec: ioTimeoutSeconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, size)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, size)
    }
}

/// A scripted peer's failure: a socket call failed, or the script did not finish in time.
struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
