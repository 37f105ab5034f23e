import Glibc
import LoopbackTools
import Testing

/// Ports the kernel picks on 127.0.0.1.
@Suite struct LoopbackPortTests {
    @Test func aBoundListeningSocketAcceptsOnItsPort() throws {
        let (listener, port) = try LoopbackPort.bound(listening: 4)
        defer { close(listener) }
        #expect(port > 0 && port < 65536)
        #expect(LoopbackPort.accepts(port))
    }

    /// A free port is one nothing listens on, and which can be bound again at once.
    @Test func aFreePortIsNotInUse() throws {
        let port = try LoopbackPort.free()
        #expect(!LoopbackPort.accepts(port))
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(bound == 0)
    }

    private func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

}
