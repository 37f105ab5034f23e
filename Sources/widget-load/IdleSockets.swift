import Glibc

/// TCP connections to the server that never become WebSockets, as a port scan, a slow-headers
/// attack or an idle browser connection makes them. libwebsockets must close each by itself
/// (`HostileRules.headerTimeout`, `.keepAliveTimeout`). Plain non-blocking sockets, looked at on
/// the soak's clock (`service`); what arrives is only noted, and the end timed.
final class IdleSockets {
    enum Kind: String, CaseIterable {
        /// Connects and sends nothing.
        case silent
        /// Sends the request line and `Host`, and never ends the headers.
        case partial
        /// The same, then one more byte of a header a second.
        case trickle
        /// A whole request for the page, then nothing (HTTP/1.1 keeps the connection open).
        case keepAlive

        /// Whether the server has a request to answer.
        var asks: Bool { self == .keepAlive }
    }

    /// A connection the server ended (with or without answering first), or one that went wrong.
    enum Event {
        case closed(Kind, afterSeconds: Double, answered: Bool)
        case failed(Kind, String)
    }

    private struct Socket {
        let kind: Kind
        var fd: Int32
        let opened: Double
        var connected = false
        var nextByte: Double
        var answered = false
    }

    private let target: LoopbackTarget
    private var sockets: [Socket] = []

    init(target: LoopbackTarget) { self.target = target }

    deinit { closeAll() }

    var openCount: Int { sockets.count }

    /// Starts `count` connections, the kinds in turn.
    func open(_ count: Int, now: Double) -> [Event] {
        var events: [Event] = []
        for n in 0..<count {
            let kind = Kind.allCases[n % Kind.allCases.count]
            let fd = socket(
                target.address.contains(":") ? AF_INET6 : AF_INET,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                events.append(.failed(kind, "socket: \(String(cString: strerror(errno)))"))
                continue
            }
            guard connect(fd) == 0 || errno == EINPROGRESS else {
                events.append(.failed(kind, "connect: \(String(cString: strerror(errno)))"))
                Glibc.close(fd)
                continue
            }
            sockets.append(Socket(kind: kind, fd: fd, opened: now, nextByte: now))
        }
        return events
    }

    /// Finishes connects, writes what is due, and reports the connections that ended.
    func service(now: Double) -> [Event] {
        guard !sockets.isEmpty else { return [] }
        var polled = sockets.map {
            pollfd(fd: $0.fd, events: Int16(POLLIN) | ($0.connected ? 0 : Int16(POLLOUT)), revents: 0)
        }
        guard poll(&polled, nfds_t(polled.count), 0) >= 0 else { return [] }
        var events: [Event] = []
        var kept: [Socket] = []
        for (var s, entry) in zip(sockets, polled) {
            if !s.connected, entry.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else {
                    events.append(.failed(s.kind, "connect: \(String(cString: strerror(error)))"))
                    Glibc.close(s.fd)
                    continue
                }
                s.connected = true
                if s.kind != .silent { send(s.fd, s.kind.asks ? request : head) }
            }
            if s.connected, s.kind == .trickle, now >= s.nextByte {
                send(s.fd, Array("a".utf8))
                s.nextByte = now + 1
            }
            if s.connected, entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(s.fd, &buffer, buffer.count, 0)
                if n > 0 {
                    s.answered = true
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    // The end (FIN), or a reset: either way the server let go.
                    events.append(.closed(s.kind, afterSeconds: now - s.opened, answered: s.answered))
                    Glibc.close(s.fd)
                    continue
                }
            }
            kept.append(s)
        }
        sockets = kept
        return events
    }

    /// Closes what is still open (from this side).
    func closeAll() {
        for s in sockets { Glibc.close(s.fd) }
        sockets = []
    }

    /// The start of a request that never ends: the headers' blank line never comes.
    private var head: [UInt8] { Array("GET / HTTP/1.1\r\nHost: \(target.hostHeader)\r\nX-Slow: ".utf8) }
    private var request: [UInt8] { Array("GET / HTTP/1.1\r\nHost: \(target.hostHeader)\r\n\r\n".utf8) }

    private func connect(_ fd: Int32) -> Int32 {
        if target.address.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(target.port).bigEndian)
            inet_pton(AF_INET6, target.address, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(target.port).bigEndian)
        address.sin_addr.s_addr = inet_addr(target.address)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// Best effort: a write the server refuses shows as the end at the next read.
    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
