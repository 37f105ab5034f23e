import CLibWebSockets
import Glibc
import ScrollCore

/// What the sockets report, on the one service thread.
protocol ClientSocketsDelegate: AnyObject {
    func established(_ index: Int)
    /// A piece of a message; `isLast` once the message is complete.
    func received(_ index: Int, _ bytes: UnsafeRawBufferPointer, binary: Bool, isLast: Bool)
    /// The text to write now, if any (one write per writable callback, as the server does).
    func nextText(_ index: Int) -> String?
    /// `nextText`'s text, encoded and copied, is handed to lws now (the moment it goes out).
    func writing(_ index: Int)
    func closed(_ index: Int, error: String?)
    func timerFired()
    /// How `index` should end now, if it should: asked after each piece received and at each
    /// chance to write (ask for one with `requestWrite`).
    func ending(_ index: Int) -> ClientSockets.Ending?
    /// The server's close frame: its status code and reason (`closed` follows).
    func closeFrame(_ index: Int, code: UInt16, reason: String)
}

extension ClientSocketsDelegate {
    func ending(_ index: Int) -> ClientSockets.Ending? { nil }
    func closeFrame(_ index: Int, code: UInt16, reason: String) {}
    func writing(_ index: Int) {}
}

/// The libwebsockets client side: one context, one service thread (the caller's), N
/// connections known by index. Every method runs on that thread.
final class ClientSockets {
    weak var delegate: ClientSocketsDelegate?
    /// Client `index` connects to `targets[index % targets.count]` (client 0, a room's driver, to the first).
    private let targets: [LoopbackTarget]
    private let subprotocol: String
    private var context: OpaquePointer?
    /// What lws keeps pointers into (protocol table, name): freed after the context.
    private var contextMemory: UnsafeMutablePointer<rs_context_memory>?
    private var timer: UnsafeMutablePointer<rs_timer>?
    private var sockets: [OpaquePointer?] = []
    private var stopped = false
    /// LWS_PRE bytes of headroom, then the message (messages we send are small).
    private var sendBuffer = [UInt8](repeating: 0, count: Int(rs_lws_pre()) + 4096)

    struct StartError: Error, CustomStringConvertible { let description: String }

    /// The ways a client leaves (the soak tries each; the server must be left clean by all).
    enum Ending: String {
        /// A close frame (1000) and the closing handshake, as a page that navigates away.
        case close
        /// The socket closes with no close frame (FIN), as a killed tab's.
        case drop
        /// The socket is reset (RST), as a connection that vanished.
        case reset
    }

    convenience init(target: LoopbackTarget) throws { try self.init(targets: [target]) }

    /// `subprotocol`: asked for by every connection (another server's, for a peer benchmark).
    init(targets: [LoopbackTarget], subprotocol: String = ProtocolVersion.subprotocol) throws {
        precondition(!targets.isEmpty)
        self.targets = targets
        self.subprotocol = subprotocol
        lws_set_log_level(LLL_ERR, nil)
        // Frames are ~1 KB; a full frame or a big presence message arrives in a few pieces.
        let me = Unmanaged.passUnretained(self).toOpaque()
        context = rs_create_client_context(subprotocol, clientCallback, 16 * 1024, me, &contextMemory)
        guard context != nil else { throw StartError(description: "could not create a libwebsockets client context") }
        timer = rs_timer_new(me)
    }

    deinit { close() }

    /// Starts connecting `index` (asynchronous: `established` or `closed` follows).
    func connect(_ index: Int) -> Bool {
        guard let context else { return false }
        if sockets.count <= index { sockets += Array(repeating: nil, count: index + 1 - sockets.count) }
        let target = targets[index % targets.count]
        return rs_client_connect(
            context, target.address, Int32(target.port), target.path, target.hostHeader, target.origin,
            subprotocol, UInt(index)) == 0
    }

    func requestWrite(_ index: Int) {
        if let wsi = sockets[index] { lws_callback_on_writable(wsi) }
    }

    /// Stops reading `index`'s socket (its buffers fill, as a client that stopped reading), or
    /// reads it again.
    func setReading(_ index: Int, _ reading: Bool) {
        if let wsi = sockets[index] { lws_rx_flow_control(wsi, reading ? 1 : 0) }
    }

    /// Caps `index`'s kernel receive buffer at `bytes` (which also stops Linux growing it):
    /// with autotuning a loopback socket may take tens of MB (`tcp_rmem`'s maximum) before its
    /// sender notices that nobody reads, so a stalled reader's fate would hang on the machine.
    func limitReceiveBuffer(_ index: Int, bytes: Int32) {
        guard let wsi = sockets[index] else { return }
        var size = bytes
        setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Bytes the kernel holds for `index` that nobody has read yet (nil when unknown).
    func bytesUnread(_ index: Int) -> Int? {
        guard let wsi = sockets[index] else { return nil }
        let n = rs_bytes_unread(lws_get_socket_fd(wsi))
        return n < 0 ? nil : Int(n)
    }

    /// The local port of `index`'s socket (nil when unknown): the server's side of the connection
    /// is the socket at the server's port whose peer is this port.
    func localPort(_ index: Int) -> Int? {
        guard let wsi = sockets[index] else { return nil }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(lws_get_socket_fd(wsi), $0, &length) }
        }
        guard named == 0 else { return nil }
        // sin_port and sin6_port sit at the same offset, in network order.
        return withUnsafeBytes(of: &address) { Int($0[2]) << 8 | Int($0[3]) }
    }

    /// Calls `timerFired` after `microseconds` (one timer; scheduling again moves it).
    func schedule(microseconds: Int) {
        guard let context, let timer else { return }
        rs_timer_schedule(context, timer, timerCallback, Int64(microseconds))
    }

    /// Services until `stop()` is called from a callback (at once if it was called before:
    /// a run can end in its first step, before servicing).
    func run() {
        guard let context else { return }
        while !stopped {
            if lws_service(context, 0) < 0 { break }
        }
    }

    func stop() {
        stopped = true
        // Wakes lws_service, which otherwise sleeps until the next event (up to 30 s when none is due).
        if let context { lws_cancel_service(context) }
    }

    /// Closes every connection and the context.
    func close() {
        guard let context else { return }
        if let timer { rs_timer_cancel(timer); free(timer) }
        timer = nil
        lws_context_destroy(context)
        self.context = nil
        rs_context_memory_free(contextMemory)
        contextMemory = nil
    }

    fileprivate func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ len: Int
    ) -> Int32 {
        let index = Int(rs_client_tag(wsi))
        guard let delegate, index < sockets.count else { return 0 }
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            sockets[index] = wsi
            delegate.established(index)
        case LWS_CALLBACK_CLIENT_RECEIVE:
            let isLast = lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0
            delegate.received(
                index, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : len),
                binary: lws_frame_is_binary(wsi) != 0, isLast: isLast)
            if let ending = delegate.ending(index) { return end(wsi, ending) }
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            if let ending = delegate.ending(index) { return end(wsi, ending) }
            guard let text = delegate.nextText(index) else { return 0 }
            return write(text, to: wsi, index: index) ? 0 : -1
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            // The close frame's payload: a 2-byte status code (big-endian), then the reason.
            let payload = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : len)
            if payload.count >= 2 {
                let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
                delegate.closeFrame(index, code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
            }
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let reason = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "unknown"
            sockets[index] = nil
            delegate.closed(index, error: "connection failed: \(reason)")
        case LWS_CALLBACK_CLIENT_CLOSED:
            sockets[index] = nil
            delegate.closed(index, error: nil)
        default:
            break
        }
        return 0
    }

    /// Returning -1 from a callback closes the connection; a close reason set first makes lws
    /// send that close frame and wait for the answer, none makes it just close the socket.
    private func end(_ wsi: OpaquePointer, _ ending: Ending) -> Int32 {
        switch ending {
        case .close:
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, nil, 0)
        case .drop:
            break
        case .reset:
            // Linger on, timeout 0: close() sends RST instead of FIN.
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(
                lws_get_socket_fd(wsi), SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        return -1
    }

    private func write(_ text: String, to wsi: OpaquePointer, index: Int) -> Bool {
        let pre = Int(rs_lws_pre())
        var text = text
        return text.withUTF8 { utf8 in
            precondition(utf8.count <= sendBuffer.count - pre, "messages the load generator sends are small")
            return sendBuffer.withUnsafeMutableBufferPointer { buffer in
                let start = buffer.baseAddress! + pre
                start.update(from: utf8.baseAddress!, count: utf8.count)
                delegate?.writing(index)
                return lws_write(wsi, start, utf8.count, LWS_WRITE_TEXT) >= Int32(utf8.count)
            }
        }
    }

    fileprivate func timerFired() { delegate?.timerFired() }
}

private func clientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ len: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    return Unmanaged<ClientSockets>.fromOpaque(owner).takeUnretainedValue().handle(wsi, reason, input, len)
}

private func timerCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = rs_timer_owner(sul) else { return }
    Unmanaged<ClientSockets>.fromOpaque(owner).takeUnretainedValue().timerFired()
}
