import Foundation
import Glibc
import LoopbackTools
import Testing

/// `ServerProcess` with shell scripts standing in for `widget-server`.
@Suite struct ServerProcessTests {
    /// Writes an executable shell script standing in for the server. Opened close-on-exec: a
    /// process another test forks meanwhile must not inherit the open file, or running the
    /// script fails with "Text file busy" (ETXTBSY) until that process execs.
    private func stub(_ body: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stub-server-\(UUID().uuidString).sh")
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else {
            throw LaunchError.launchFailed(executable: url.path, reason: "cannot create it: errno \(errno)")
        }
        defer { close(fd) }
        let bytes = Array(("#!/bin/sh\n" + body).utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            throw LaunchError.launchFailed(executable: url.path, reason: "cannot write it: errno \(errno)")
        }
        return url
    }

    /// A stand-in that prints its arguments and a listening line naming `port`, then blocks until
    /// signalled (`tail -f /dev/null`), like a server.
    private func listening(on port: Int) throws -> URL {
        try stub(
            """
            echo "args: $*"
            echo "widget-server listening on http://127.0.0.1:\(port)/ (room default)"
            exec tail -f /dev/null
            """)
    }

    @Test func parsesThePortFromTheListeningLine() throws {
        let script = try listening(on: 4567)
        defer { try? FileManager.default.removeItem(at: script) }
        let server = try ServerProcess(arguments: ["--extra"], executable: script.path)
        #expect(server.port == 4567)
        #expect(server.httpURL == "http://127.0.0.1:4567/")
        #expect(server.wsURL == "ws://127.0.0.1:4567/")
        // Without a --state of their own, test servers keep no state: parallel tests share no file.
        #expect(server.output.contains("args: --host 127.0.0.1 --port 0 --extra --state none"))
        server.stop()
        #expect(server.hasExited)
    }

    @Test func aGivenPortIsPassedToTheServer() throws {
        let script = try listening(on: 4568)
        defer { try? FileManager.default.removeItem(at: script) }
        let server = try ServerProcess(port: 4568, executable: script.path)
        defer { server.stop() }
        #expect(server.port == 4568)
        #expect(server.output.contains("args: --host 127.0.0.1 --port 4568"))
    }

    @Test func aServerThatExitsEarlyIsReportedWithItsOutput() throws {
        let script = try stub("echo 'bind failed' >&2\nexit 3\n")
        defer { try? FileManager.default.removeItem(at: script) }
        #expect {
            try ServerProcess(executable: script.path)
        } throws: { error in
            "\(error)".contains("exited before") && "\(error)".contains("bind failed")
        }
    }

    @Test func aMissingBinarySaysToBuildFirst() {
        #expect {
            try ServerProcess(executable: "/nonexistent/widget-server")
        } throws: { error in
            "\(error)".contains("swift build")
        }
    }
}
