import Foundation
import LoopbackTools
import ScrollCore
import Testing
import WebSocketClient

/// A binary copied out of the build tree finds its page beside itself or in the working
/// directory, never through a source path compiled into it.
@Suite struct CopiedBinaryTests {
    private func copyOfServer() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("copied-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Copied by `cp`, not in-process: a write descriptor open here would leak into
        // children spawned meanwhile by parallel tests and make exec fail (ETXTBSY).
        let cp = try ChildProcess(
            executable: "/bin/cp", arguments: [ServerProcess.binaryPath(), dir.path + "/widget-server"])
        #expect(cp.waitForExit(timeout: 30))
        return dir
    }

    @Test func withoutAPageItExitsNamingThePublicOption() throws {
        let dir = try copyOfServer()
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("widget-server").path
        #expect {
            try ServerProcess(executable: binary, workingDirectory: dir.path)
        } throws: { error in
            let text = "\(error)"
            return text.contains("exited before") && text.contains("--public") && text.contains(dir.path + "/Public")
        }
    }

    @Test func itServesThePageBesideIt() throws {
        let dir = try copyOfServer()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: PackagePaths.publicDirectory, to: dir.appendingPathComponent("Public"))
        // Run from elsewhere: only "beside the executable" can find the page.
        let server = try ServerProcess(
            executable: dir.appendingPathComponent("widget-server").path, workingDirectory: "/")
        let page = try WebSocketClient.httpGet(url: server.httpURL, timeout: 5)
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("<canvas"))
    }

    @Test func itServesThePageInTheWorkingDirectory() throws {
        let dir = try copyOfServer()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServerProcess(
            executable: dir.appendingPathComponent("widget-server").path,
            workingDirectory: PackagePaths.root.path)
        #expect(try WebSocketClient.httpGet(url: server.httpURL + "js/app.js", timeout: 5).status == 200)
    }

    @Test func versionNamesTheProtocol() throws {
        let child = try ChildProcess(executable: ServerProcess.binaryPath(), arguments: ["--version"])
        #expect(child.waitForExit(timeout: 10))
        #expect(child.output.waitForLine(timeout: 5) { $0.contains("(protocol \(ProtocolVersion.current))") } != nil)
    }
}
