import Foundation
import Glibc

/// The plain TCP parts the raw test clients share: connect to 127.0.0.1, read with a deadline,
/// write everything.
enum LoopbackSocket {
    /// A connected socket (close-on-exec); `configure` runs before connecting (buffer sizes).
    /// Writes time out after `timeout` s.
    static func connect(port: Int, timeout: Double, configure: (Int32) -> Void = { _ in }) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WireError("socket: \(String(cString: strerror(errno)))") }
        configure(fd)
        var timeval = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw WireError("connect: \(reason)")
        }
        return fd
    }

    /// Appends what arrives to `inbound`, waiting until `deadline`; false if nothing came in
    /// time. Throws when the peer has closed (or reset) the connection.
    static func read(_ fd: Int32, into inbound: inout [UInt8], deadline: Date) throws -> Bool {
        let ms = Int32(max(0, min(deadline.timeIntervalSinceNow * 1000, 60_000)))
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, ms) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { throw WireError("the connection ended") }
        inbound += buffer[0..<n]
        return true
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw WireError("send: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }
}
