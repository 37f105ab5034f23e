import Foundation
import Glibc
import LoopbackTools

/// deploy/nginx-site.conf inside an nginx of the test's own: a minimal nginx.conf whose http { }
/// includes the site (as Debian's includes sites-enabled/), a self-signed certificate for
/// `DeployFiles.publicName` made with openssl, and the pid, logs and temporary files in a
/// directory of its own (removed with it; nginx writes nothing outside it). One process
/// (`master_process off`, `daemon off`) run by whoever runs the tests, on loopback only.
///
/// nginx is `$NGINX` if set, else `/usr/sbin/nginx` (Debian's `nginx`).
final class NginxSite {
    static let executable =
        ProcessInfo.processInfo.environment["NGINX"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "/usr/sbin/nginx"

    let directory: URL
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }
    private var configuration: String { directory.appendingPathComponent("nginx.conf").path }
    private var errorLog: String { directory.appendingPathComponent("error.log").path }
    private var running: ChildProcess?

    init() throws {
        try ToolRun.require(Self.executable)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let name = DeployFiles.publicName
        let openssl = try ToolRun(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=\(name)",
                "-addext", "subjectAltName=DNS:\(name)",
            ])
        guard openssl.succeeded else { throw WireError("openssl could not make a certificate: \(openssl.output)") }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The site with this test's certificate in place of the Let's Encrypt paths it names.
    func certified(_ site: String) throws -> String {
        let live = "/etc/letsencrypt/live/\(DeployFiles.publicName)/"
        return try site.replacing(required: live + "fullchain.pem", with: certificate)
            .replacing(required: live + "privkey.pem", with: key)
    }

    /// `nginx -t` on an nginx.conf including `site` (and `extra`, more of the http block).
    func check(site: String, extra: String = "") throws -> ToolRun {
        try write(site: site, extra: extra)
        return try ToolRun(Self.executable, arguments + ["-t"])
    }

    /// Starts nginx with `site` and `extra` and waits until `port` takes connections (nginx has
    /// bound every listener by then). Throws with nginx's output if it exits first.
    func start(site: String, extra: String, port: Int, timeout: Double = 10) throws {
        try write(site: site, extra: extra)
        let child = try ChildProcess(executable: Self.executable, arguments: arguments)
        running = child
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !child.hasExited {
            if let fd = try? LoopbackSocket.connect(port: port, timeout: 1) {
                close(fd)
                return
            }
            usleep(20_000)
        }
        stop()
        let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        throw WireError("nginx did not take connections on \(port): \(child.output.text)\n\(log)")
    }

    /// SIGTERM (nginx's fast shutdown), waiting for it to exit.
    func stop() {
        running?.stop()
        running = nil
    }

    private var arguments: [String] { ["-p", directory.path, "-c", configuration, "-e", errorLog] }

    private func write(site: String, extra: String) throws {
        let dir = directory.path
        let sitePath = directory.appendingPathComponent("site.conf").path
        try site.write(toFile: sitePath, atomically: false, encoding: .utf8)
        let temporaries = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
            .map { "    \($0)_temp_path \(dir)/\($0);" }.joined(separator: "\n")
        let conf = """
            daemon off;
            master_process off;
            pid \(dir)/nginx.pid;
            error_log \(errorLog);
            events { worker_connections 64; }
            http {
                access_log \(dir)/access.log;
            \(temporaries)
                include \(sitePath);
            \(extra)
            }

            """
        try conf.write(toFile: configuration, atomically: false, encoding: .utf8)
    }
}
