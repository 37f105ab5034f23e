import Foundation
import LoopbackTools
import Testing

/// A real nats-server (Debian's package): ready when started, back on its port and store after
/// a kill, and its store gone with it.
@Suite struct NATSServerProcessTests {
    @Test func startsKillsAndRestartsInPlace() throws {
        var server: NATSServerProcess? = try NATSServerProcess()
        let port = try #require(server?.port)
        let store = try #require(server?.storeDirectory)
        #expect(server?.url == "nats://127.0.0.1:\(port)")
        #expect(server?.output.contains("Listening for client connections on 127.0.0.1:\(port)") == true)
        #expect(FileManager.default.fileExists(atPath: store + "/jetstream"))

        server?.kill()
        #expect(server?.hasExited == true)
        let killedPid = server?.pid
        try server?.restart()
        #expect(server?.hasExited == false && server?.pid != killedPid)
        #expect(server?.port == port)
        #expect(server?.output.contains("Store Directory: \"\(store)/jetstream\"") == true)

        server?.stop()
        #expect(server?.hasExited == true)
        server = nil
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// A port something else holds: nats-server cannot start there, and says why.
    @Test func aTakenPortIsReported() throws {
        let (listener, port) = try LoopbackPort.bound(listening: 1)
        defer { close(listener) }
        #expect {
            try NATSServerProcess(port: port)
        } throws: { error in
            "\(error)".contains("address already in use")
        }
    }
}
