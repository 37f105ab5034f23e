import Foundation
import Glibc
import LoopbackTools
import ScrollCore
import WebSocketClient

/// A bare-bones protocol client for what `WireClient` cannot do: leave without a closing
/// handshake (the TCP connection just ends, as when a tab crashes), stop reading with a
/// small receive buffer (so a non-reading client's backlog reaches the server soon), send
/// what no real client would (text that is not UTF-8, a 1 MiB message), and read the code
/// of the server's close frame.
///
/// It speaks just enough RFC 6455: the opening handshake, then `WebSocketClient.Frame`s (any
/// frame out, unfragmented frames in). Every wait has a deadline.
final class RawWireSocket {
    typealias Frame = WebSocketClient.Frame
    private var fd: Int32
    private var inbound = ByteQueue()
    /// `welcome.client`, once `join` has read it.
    private(set) var id = ""

    /// Connects to `server` and performs the opening handshake.
    /// - Parameter stingy: a small receive buffer (4 KiB) and segment size (536 B), set before
    ///   connecting. On loopback the server's send buffer grows to megabytes for a peer with
    ///   64 KiB segments; for a peer like this one it stays near 64 KiB, so a client that stops
    ///   reading is felt by the server within a second of frames rather than after minutes.
    init(_ server: ServerProcess, stingy: Bool = false, timeout: Double = 5) throws {
        fd = try LoopbackSocket.connect(port: server.port, timeout: timeout) { fd in
            guard stingy else { return }
            var size: Int32 = 4096, segment: Int32 = 536
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_MAXSEG, &segment, socklen_t(MemoryLayout<Int32>.size))
        }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try write(
            Array(
                ("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Protocol: \(ProtocolVersion.subprotocol)\r\n\r\n").utf8))
        let deadline = Date().addingTimeInterval(timeout)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let at = inbound.firstIndex(of: end) {
                let head = String(decoding: inbound.consume(at + end.count).dropLast(end.count), as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101") else { throw WireError("handshake refused: \(head)") }
                return
            }
            guard try read(deadline: deadline) else { throw WireError("no handshake answer within \(timeout) s") }
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// This end's port (to find the connection in /proc/net/tcp).
    var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Sends `hello` and reads up to the welcome; after this the socket is read no more unless
    /// asked.
    func join(room: String, scene: String? = nil, timeout: Double = 5) throws {
        try send(.hello(.init(room: room, scene: scene)))
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let text = try nextText(deadline: deadline) else { throw WireError("no welcome within \(timeout) s") }
            if let o = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                o["type"] as? String == "welcome"
            {
                id = o["client"] as? String ?? ""
                return
            }
        }
    }

    func send(_ message: ClientMessage) throws {
        try sendFrame(opcode: 0x1, payload: Array(message.encoded().utf8))
    }

    /// Any frame with any payload: text that is not UTF-8, a message of any size, an unknown
    /// opcode (`WebSocketClient.Frame.encode`), unmasked if asked.
    func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true) throws {
        try write(Frame.encode(fin: fin, opcode: opcode, payload: payload, masked: masked))
    }

    func pointer(_ phase: PointerPhase, x: Double, y: Double = 214, t: Double, id: Int = 1) throws {
        try send(.pointer(.init(phase: phase, id: id, x: x, y: y, t: t)))
    }

    /// Ends the connection with no WebSocket close frame, as a crashed tab does: the server sees
    /// the stream end right after the last message. (Half-closed first, and what the server still
    /// sends is read until it closes too: closing a socket with unread data would send a reset,
    /// which may discard the last messages before the server reads them.)
    func drop(timeout: Double = 5) {
        guard fd >= 0 else { return }
        shutdown(fd, Int32(SHUT_WR))
        let deadline = Date().addingTimeInterval(timeout)
        while (try? read(deadline: deadline)) == true { _ = inbound.consume(inbound.count) }
        Glibc.close(fd)
        fd = -1
    }

    /// What `readAll` found: the seq of each frame, each text message, and whether the server
    /// closed the connection (with a close frame: its code and reason).
    struct Backlog {
        var seqs: [UInt32] = []
        var texts: [String] = []
        var closed = false
        var closeCode: UInt16?
        var closeReason = ""
    }

    /// Reads everything until nothing comes for `quiet` s, the server closes, or `timeout` s pass.
    func readAll(quiet: Double = 0.4, timeout: Double = 5) -> Backlog {
        var backlog = Backlog()
        let end = Date().addingTimeInterval(timeout)
        while !backlog.closed {
            do {
                while let frame = try nextFrame() {
                    let payload = frame.payload
                    switch frame.opcode {
                    case .text: backlog.texts.append(String(decoding: payload, as: UTF8.self))
                    case .binary where payload.count >= 8:
                        backlog.seqs.append(payload[4..<8].reversed().reduce(0) { $0 << 8 | UInt32($1) })
                    case .close:
                        backlog.closed = true
                        if payload.count >= 2 {
                            backlog.closeCode = UInt16(payload[0]) << 8 | UInt16(payload[1])
                            backlog.closeReason = String(decoding: payload.dropFirst(2), as: UTF8.self)
                        }
                    default: break
                    }
                }
                if backlog.closed { break }
                let deadline = min(end, Date().addingTimeInterval(quiet))
                guard try read(deadline: deadline) else { break }
            } catch {
                backlog.closed = true
            }
        }
        return backlog
    }

    // MARK: - Internals

    /// The next text message's payload (frames and control frames skipped); nil at the deadline.
    private func nextText(deadline: Date) throws -> String? {
        while true {
            while let frame = try nextFrame() {
                if frame.opcode == .text { return String(decoding: frame.payload, as: UTF8.self) }
                if frame.opcode == .close { throw WireError("the server closed the connection") }
            }
            guard try read(deadline: deadline) else { return nil }
        }
    }

    /// One unfragmented server frame from `inbound`, if complete.
    private func nextFrame() throws -> Frame? {
        guard let frame = try Frame.parse(from: &inbound, maxPayload: 64 << 20) else { return nil }
        guard frame.fin else { throw WireError("fragmented frames are not handled here") }
        return frame
    }

    /// Reads what is there, waiting until `deadline`; false if nothing came.
    private func read(deadline: Date) throws -> Bool {
        var bytes: [UInt8] = []
        defer { inbound.append(bytes) }
        return try LoopbackSocket.read(fd, into: &bytes, deadline: deadline)
    }

    private func write(_ bytes: [UInt8]) throws {
        try LoopbackSocket.write(fd, bytes)
    }
}
