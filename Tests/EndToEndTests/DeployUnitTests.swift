import Foundation
import LoopbackTools
import Testing

/// deploy/widget-server.service (docs/DEPLOY.md) as systemd reads it, offline: no running systemd
/// is needed (`systemd-analyze verify` and `security --offline` read the file alone).
@Suite struct DeployUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"

    /// A copy of the unit, `edit`ed, in a directory of its own; its ExecStart names this build's
    /// widget-server, since `verify` requires an executable there and /usr/local/bin is not
    /// the tests' to fill.
    private func copyOfUnit(_ edit: (String) throws -> String = { $0 }) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let text = try DeployFiles.text(DeployFiles.unit).replacing(
            required: "ExecStart=/usr/local/bin/widget-server ", with: "ExecStart=\(ServerProcess.binaryPath()) ")
        let url = directory.appendingPathComponent("widget-server.service")
        try edit(text).write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    private func remove(_ unit: URL) { try? FileManager.default.removeItem(at: unit.deletingLastPathComponent()) }

    /// What `systemd-analyze verify` says about `unit`: nothing when it is right. It exits 0 on
    /// an unknown key or a value it cannot parse (systemd ignores those lines and runs the
    /// rest), so every line it prints counts.
    private func problems(_ unit: URL) throws -> [String] {
        let run = try ToolRun(Self.analyze, ["verify", "--man=no", unit.path])
        let lines = run.output.split(separator: "\n").map(String.init)
        return run.succeeded ? lines : lines + ["exit: \(run.exit?.description ?? "still running after 60 s")"]
    }

    @Test("systemd-analyze verify says nothing about the unit; a misspelt key or a value it would ignore is caught")
    func verifies() throws {
        let unit = try copyOfUnit()
        defer { remove(unit) }
        #expect(try problems(unit) == [])
        for (good, bad) in [
            ("Restart=on-failure", "Restart=on-failur"), ("ProtectSystem=strict", "ProtectSytem=strict"),
        ] {
            let broken = try copyOfUnit { try $0.replacing(required: good, with: bad) }
            defer { remove(broken) }
            #expect(try !problems(broken).isEmpty, "\(bad) passed")
        }
    }

    @Test("systemd-analyze security --offline rates the sandbox at most 1.5 of 10 (\"OK\"; a unit without one: 9.6)")
    func sandbox() throws {
        let unit = try copyOfUnit()
        defer { remove(unit) }
        // --threshold counts tenths: the exit status is 1 above 1.5.
        let run = try ToolRun(Self.analyze, ["security", "--offline=yes", "--threshold=15", unit.path])
        #expect(run.succeeded, "\(run.output.split(separator: "\n").filter { $0.contains("Overall") })")
    }

    @Test("--state lies in the StateDirectory, the one place ProtectSystem=strict leaves writable")
    func stateInStateDirectory() throws {
        let unit = SystemdUnit(text: try DeployFiles.text(DeployFiles.unit))
        #expect(unit.values("ProtectSystem") == ["strict"])
        let directory = try #require(unit.values("StateDirectory").first)
        let state = try #require(unit.option("--state"))
        #expect(URL(fileURLWithPath: state).deletingLastPathComponent().path == "/var/lib/\(directory)")
    }
}
