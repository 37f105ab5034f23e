import Glibc

/// TCP ports on 127.0.0.1 that the kernel picks: for a test's own listener, or for a server that
/// must be told its port (nginx, nats-server).
public enum LoopbackPort {
    /// A port on 127.0.0.1 that was free a moment ago (bound to 0, read, closed), for a process
    /// that cannot report the port it picked itself; another process may take it meanwhile.
    public static func free() throws -> Int {
        let (fd, port) = try bound(listening: nil)
        close(fd)
        return port
    }

    /// Whether something accepts TCP connections on 127.0.0.1 at `port` now (a server that
    /// prints nothing once it listens is waited for this way); the connection is closed at once.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A TCP socket (close-on-exec) bound to 127.0.0.1 on a port the kernel picks (listening
    /// with `backlog` if given), and that port.
    public static func bound(listening backlog: Int32?) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw LaunchError.launchFailed(executable: "(socket)", reason: String(cString: strerror(errno)))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true)
                    && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw LaunchError.launchFailed(executable: "(bind 127.0.0.1)", reason: reason)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
