import Glibc

/// A non-blocking TCP socket whose every wait is a poll() bounded by a `Deadline`.
final class TCPSocket {
    enum ReadResult { case data, timedOut, endOfStream }

    private var fd: Int32

    /// Tries each address `host` resolves to until one connects before `deadline`.
    init(host: String, port: Int, deadline: Deadline) throws {
        func failure(_ reason: String) -> WebSocketError {
            .connectFailed(host: host, port: port, reason: reason)
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw failure(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }

        var lastError = "no addresses"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate?.pointee {
            candidate = info.ai_next
            // CLOEXEC: a copy inherited by a process spawned meanwhile (say, a browser)
            // would keep the connection alive after we close it.
            let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(info.ai_family, flags, 0)
            guard fd >= 0 else { lastError = Self.errnoText(); continue }
            let error: String?
            if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 {
                error = nil
            } else if errno == EINPROGRESS {
                error = Self.awaitConnect(fd, deadline: deadline)
            } else {
                error = Self.errnoText()
            }
            if let error {
                lastError = error
                Glibc.close(fd)
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            self.fd = fd
            return
        }
        throw failure(lastError)
    }

    deinit { close() }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// Writes all of `bytes`, waiting for buffer space no later than `deadline`.
    func write(_ bytes: [UInt8], deadline: Deadline) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                // MSG_NOSIGNAL: a peer that went away must surface as EPIPE, not kill the process.
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                guard try wait(for: Int16(POLLOUT), deadline: deadline) else {
                    throw WebSocketError.timeout("writing to the socket")
                }
            } else if errno != EINTR {
                throw WebSocketError.io("send: \(Self.errnoText())")
            }
        }
    }

    /// Appends whatever is readable to `queue`, waiting for data no later than `deadline`.
    func read(into queue: inout ByteQueue, deadline: Deadline) throws -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let received = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                chunk.withUnsafeBytes { queue.append(UnsafeRawBufferPointer(rebasing: $0[..<received])) }
                return .data
            } else if received == 0 {
                return .endOfStream
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                guard try wait(for: Int16(POLLIN), deadline: deadline) else { return .timedOut }
            } else if errno != EINTR {
                throw WebSocketError.io("recv: \(Self.errnoText())")
            }
        }
    }

    /// Polls for `events`; false when the deadline passes first.
    private func wait(for events: Int16, deadline: Deadline) throws -> Bool {
        guard fd >= 0 else { throw WebSocketError.io("socket is closed") }
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.pollMilliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { throw WebSocketError.io("poll: \(Self.errnoText())") }
        }
    }

    /// Waits for a non-blocking connect to finish; returns an error text, or nil on success.
    private static func awaitConnect(_ fd: Int32, deadline: Deadline) -> String? {
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, deadline.pollMilliseconds)
            if ready > 0 { return connectedError(fd) }
            if ready == 0 { return "timed out" }
            if errno != EINTR { return errnoText() }
        }
    }

    /// The pending error of a socket whose connect has finished, or nil if it connected.
    private static func connectedError(_ fd: Int32) -> String? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errnoText() }
        return error == 0 ? nil : String(cString: strerror(error))
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
