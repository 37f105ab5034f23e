import Foundation
import Glibc
import LoopbackTools
import Testing

/// libwebsockets' test server (Debian's libwebsockets-test-server), the peer `widget-load peer`
/// measures against: listening on the loopback address only, where it is pinned, and gone when stopped.
@Suite struct MirrorServerTests {
    @Test("it listens on 127.0.0.1 alone (never every address), on the cores it was launched on")
    func listensOnLoopbackOnly() throws {
        let server = try MirrorServer(launcher: CPUAffinity.launcher(cpus: "0"))
        #expect(LoopbackPort.accepts(server.port))
        let addresses = listening(on: server.port)
        #expect(!addresses.isEmpty, "no listening socket on \(server.port) in /proc/net/tcp*")
        // 127.0.0.1 as IPv4, or as IPv6 mapped (::ffff:127.0.0.1): lws binds `-i lo` the second way.
        let loopback: Set = ["0100007F", "0000000000000000FFFF00000100007F"]
        #expect(addresses.allSatisfy(loopback.contains), "\(addresses)")
        #expect(ProcessUsage.allowedCPUs(pid: server.pid) == "0")
        #expect(server.instancesCreated.isEmpty)

        server.stop()
        #expect(server.hasExited)
        #expect(!LoopbackPort.accepts(server.port))
    }

    @Test("a mirror instance's path names it in the URL argument the mirror protocol reads")
    func instancePath() {
        #expect(MirrorServer.path(instance: "bench") == "/?mirror=bench")
        #expect(MirrorServer.subprotocol == "lws-mirror-protocol")
    }

    /// Local addresses (hex, as the kernel prints them) of the sockets listening on `port`.
    private func listening(on port: Int) -> [String] {
        let portHex = String(format: "%04X", port)
        return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { file -> [String] in
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").dropFirst().compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { return nil }
                let local = fields[1].split(separator: ":")
                return local.count == 2 && local[1] == portHex ? String(local[0]) : nil
            }
        }
    }
}
