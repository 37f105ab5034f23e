import Foundation

/// A small blocking WebSocket client (RFC 6455) for `ws://` URLs: no TLS, no extensions.
///
/// Every call blocks the calling thread until it completes or its deadline passes. An
/// instance is not thread-safe; use it from one thread at a time. Linux (Glibc) only.
///
/// ```swift
/// let socket = try WebSocketClient(url: "ws://127.0.0.1:8080/", subprotocol: "chat")
/// try socket.send(text: "hello")
/// if case .text(let reply)? = try socket.receive(timeout: 2) { print(reply) }
/// socket.close()
/// ```
public final class WebSocketClient {
    /// The subprotocol the server selected, if any. When one was requested it equals it.
    public let negotiatedSubprotocol: String?
    /// Largest message `receive` assembles; a larger one fails the connection.
    public var maxMessageBytes = 64 * 1024 * 1024

    private let socket: TCPSocket
    /// Bounds handshakes and writes, which have no timeout parameter of their own.
    private let ioTimeout: Double
    private var inbound = ByteQueue()
    /// The first frames of a fragmented message still being received.
    private var partial: (opcode: Frame.Opcode, payload: [UInt8])?
    /// Set once the connection is over; every later call throws it.
    private var ended: WebSocketError?

    /// Connects and performs the opening handshake, all within `timeout` seconds.
    ///
    /// - Parameters:
    ///   - url: A `ws://host[:port][/path][?query]` URL.
    ///   - subprotocol: Sent as `Sec-WebSocket-Protocol`; the server must select it.
    ///   - timeout: Deadline for connect plus handshake, and for each later write.
    /// - Note: No `Origin` header is sent: this is not a browser, and servers such as
    ///   Chromium's DevTools endpoint reject origins they do not know.
    public init(url: String, subprotocol: String? = nil, timeout: Double = 5) throws {
        let endpoint = try Endpoint(url, schemes: ["ws": 80])
        let deadline = Deadline(seconds: timeout)
        socket = try TCPSocket(host: endpoint.host, port: endpoint.port, deadline: deadline)
        ioTimeout = timeout

        var random = SystemRandomNumberGenerator()
        let key = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &random) }).base64EncodedString()
        var request =
            "GET \(endpoint.target) HTTP/1.1\r\n"
            + "Host: \(endpoint.hostHeader)\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
        if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        request += "\r\n"
        try socket.write(Array(request.utf8), deadline: deadline)

        let head = try HTTPResponseHead.read(from: socket, into: &inbound, deadline: deadline)
        guard head.status == 101 else { throw WebSocketError.handshakeRejected(statusLine: head.statusLine) }
        let connectionTokens = (head.headers["connection"] ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard head.headers["upgrade"]?.lowercased() == "websocket", connectionTokens.contains("upgrade") else {
            throw WebSocketError.protocolViolation("101 response lacks Upgrade: websocket and Connection: Upgrade")
        }
        guard head.headers["sec-websocket-accept"] == Self.acceptValue(forKey: key) else {
            throw WebSocketError.protocolViolation("wrong Sec-WebSocket-Accept")
        }
        guard head.headers["sec-websocket-extensions"] == nil else {
            throw WebSocketError.protocolViolation("server enabled an extension that was not offered")
        }
        let selected = head.headers["sec-websocket-protocol"]
        guard selected == subprotocol else {
            throw WebSocketError.protocolViolation(
                "asked for subprotocol \(subprotocol ?? "(none)"), server selected \(selected ?? "(none)")")
        }
        negotiatedSubprotocol = selected
    }

    deinit { close() }

    /// The `Sec-WebSocket-Accept` value a server must answer `key` with (RFC 6455 §4.2.2);
    /// public for servers and test doubles.
    public static func acceptValue(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// Sends one unfragmented text message.
    public func send(text: String) throws {
        try send(Frame(fin: true, opcode: .text, payload: Array(text.utf8)))
    }

    /// Sends one unfragmented binary message.
    public func send(binary: [UInt8]) throws {
        try send(Frame(fin: true, opcode: .binary, payload: binary))
    }

    /// Waits up to `timeout` seconds for the next complete message; nil if none arrived.
    ///
    /// Pings are answered and pongs dropped along the way. A close frame from the server is
    /// answered and thrown as `WebSocketError.closed`. A partly received message is kept
    /// across a timeout, so calling again resumes it.
    public func receive(timeout: Double) throws -> Message? {
        if let ended { throw ended }
        let deadline = Deadline(seconds: timeout)
        do {
            while true {
                if let frame = try Frame.parse(from: &inbound, maxPayload: maxMessageBytes) {
                    if let message = try handle(frame) { return message }
                    continue
                }
                switch try socket.read(into: &inbound, deadline: deadline) {
                case .data: continue
                case .timedOut: return nil
                case .endOfStream:
                    throw WebSocketError.closed(code: 1006, reason: "connection ended without a close frame")
                }
            }
        } catch let error as WebSocketError {
            if case .protocolViolation = error { writeClose(code: 1002) }
            end(error)
            throw error
        }
    }

    /// Starts the closing handshake, waits briefly for the server's answer, and closes the
    /// socket. Never throws; does nothing if the connection is already over.
    public func close() {
        guard ended == nil else { return }
        writeClose(code: 1000)
        // Let the server answer and drop the TCP connection first, as RFC 6455 §7.1.1 prefers;
        // messages still in flight are discarded.
        let deadline = Deadline(seconds: min(ioTimeout, 2))
        waiting: while true {
            do {
                while let frame = try Frame.parse(from: &inbound, maxPayload: maxMessageBytes) {
                    if frame.opcode == .close { break waiting }
                }
                guard try socket.read(into: &inbound, deadline: deadline) == .data else { break }
            } catch {
                break
            }
        }
        end(.closed(code: 1000, reason: "closed by client"))
    }

    // MARK: - Internals

    private func send(_ frame: Frame) throws {
        if let ended { throw ended }
        do {
            try socket.write(frame.encoded(), deadline: Deadline(seconds: ioTimeout))
        } catch let error as WebSocketError {
            // A partly written frame leaves the stream unusable.
            end(error)
            throw error
        }
    }

    /// Acts on one frame; returns a message once one is complete.
    private func handle(_ frame: Frame) throws -> Message? {
        switch frame.opcode {
        case .ping:
            try send(Frame(fin: true, opcode: .pong, payload: frame.payload))
            return nil
        case .pong:
            return nil
        case .close:
            let (code, reason) = try Self.parseClose(frame.payload)
            writeClose(code: frame.payload.isEmpty ? nil : code)
            throw WebSocketError.closed(code: code, reason: reason)
        case .text, .binary:
            guard partial == nil else {
                throw WebSocketError.protocolViolation("new message started inside a fragmented one")
            }
            if frame.fin { return try Self.message(frame.opcode, frame.payload) }
            partial = (frame.opcode, frame.payload)
            return nil
        case .continuation:
            guard var message = partial else {
                throw WebSocketError.protocolViolation("continuation frame outside a fragmented message")
            }
            guard message.payload.count + frame.payload.count <= maxMessageBytes else {
                throw WebSocketError.protocolViolation("message exceeds the \(maxMessageBytes)-byte limit")
            }
            message.payload += frame.payload
            partial = frame.fin ? nil : message
            return frame.fin ? try Self.message(message.opcode, message.payload) : nil
        }
    }

    /// Best effort: a close frame is a courtesy, and the socket is about to go away anyway.
    private func writeClose(code: UInt16?) {
        let payload = code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []
        try? socket.write(
            Frame(fin: true, opcode: .close, payload: payload).encoded(),
            deadline: Deadline(seconds: min(ioTimeout, 1)))
    }

    private func end(_ error: WebSocketError) {
        if ended == nil { ended = error }
        socket.close()
    }

    private static func message(_ opcode: Frame.Opcode, _ payload: [UInt8]) throws -> Message {
        guard opcode == .text else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw WebSocketError.protocolViolation("text message is not valid UTF-8")
        }
        return .text(text)
    }

    private static func parseClose(_ payload: [UInt8]) throws -> (UInt16, String) {
        if payload.isEmpty { return (1005, "") }
        guard payload.count >= 2, let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw WebSocketError.protocolViolation("malformed close frame")
        }
        return (UInt16(payload[0]) << 8 | UInt16(payload[1]), reason)
    }
}
