import Foundation
import LoopbackTools
import Testing
import WebSocketClient

/// deploy/nginx-site.conf (docs/DEPLOY.md) in a real nginx in front of a real widget-server run with
/// the unit's ExecStart, all on loopback. The test's own nginx server in front stands in for a
/// browser at https://widgets.example.com: it speaks TLS to the site under that name (checking
/// the site's certificate) and sends that Host and Origin; the Swift clients speak plain HTTP
/// and WebSocket to it.
@Suite struct DeploySiteTests {
    private static let name = DeployFiles.publicName

    @Test("nginx -t accepts the site inside an http { } block, without a warning; a missing semicolon is refused")
    func siteChecks() throws {
        let nginx = try NginxSite()
        let site = try nginx.certified(DeployFiles.text(DeployFiles.site))
        let checked = try nginx.check(site: site)
        #expect(checked.succeeded && !checked.output.contains("[warn]"), "\(checked.output)")
        let broken = try nginx.check(
            site: site.replacing(required: "proxy_http_version 1.1;", with: "proxy_http_version 1.1"))
        #expect(!broken.succeeded, "\(broken.output)")
    }

    /// The site and its server, on loopback ports of the test's choosing in place of 80, 443 and
    /// the unit's --port.
    private final class Deployment {
        let nginx: NginxSite
        let state: StateFile
        let serverArguments: [String]
        let descriptorLimit: Int
        let maxClients: String
        private(set) var server: ServerProcess
        let front: Int

        init() throws {
            let unit = SystemdUnit(text: try DeployFiles.text(DeployFiles.unit))
            state = try StateFile()
            serverArguments =
                unit.arguments(dropping: ["--host", "--port", "--public", "--state"])
                + ["--public", PackagePaths.publicDirectory.path, "--state", state.path]
            descriptorLimit = try #require(unit.values("LimitNOFILE").first.flatMap { Int($0) })
            maxClients = try #require(unit.option("--max-clients"))
            server = try Self.startServer(serverArguments, limit: descriptorLimit)

            // The site's upstream is where the unit listens.
            let upstream = "server \(try #require(unit.option("--host"))):\(try #require(unit.option("--port")));"
            nginx = try NginxSite()
            let site = try nginx.certified(DeployFiles.text(DeployFiles.site))
                .replacing(required: upstream, with: "server 127.0.0.1:\(server.port);")
                .replacing(required: "listen [::]:80;", with: "")
                .replacing(required: "listen [::]:443 ssl;", with: "")
            front = try Self.start(nginx, site: site)
        }

        /// Starts nginx with `site` on free loopback ports, and the browser stand-in; its port.
        private static func start(_ nginx: NginxSite, site: String) throws -> Int {
            var attempt = 1
            while true {
                // Ports picked now may be taken before nginx binds them: then again with others.
                let (http, tls, front) = (
                    try LoopbackPort.free(), try LoopbackPort.free(), try LoopbackPort.free()
                )
                let placed = try site.replacing(required: "listen 80;", with: "listen 127.0.0.1:\(http);")
                    .replacing(required: "listen 443 ssl;", with: "listen 127.0.0.1:\(tls) ssl;")
                do {
                    try nginx.start(
                        site: placed, extra: browser(front: front, http: http, tls: tls, nginx), port: front)
                    return front
                } catch {
                    guard attempt < 3, "\(error)".contains("Address already in use") else { throw error }
                    attempt += 1
                }
            }
        }

        /// widget-server with the unit's arguments, under the unit's descriptor limit.
        static func startServer(_ arguments: [String], limit: Int, port: Int = 0) throws -> ServerProcess {
            try ServerProcess(port: port, arguments: arguments, launcher: Launcher.descriptorLimit(limit))
        }

        /// SIGTERM, then the same server again on the same port (an upgrade's restart).
        func restartServer() throws {
            let port = server.port
            server.stop()
            server = try Self.startServer(serverArguments, limit: descriptorLimit, port: port)
        }

        /// The test's stand-in for a browser at https://NAME, in front of the site: `/` goes to
        /// the site from 127.0.0.1 (this machine), `/outside/` from 127.0.0.2 (another address),
        /// `/plain/` to the site's port 80.
        private static func browser(front: Int, http: Int, tls: Int, _ nginx: NginxSite) -> String {
            """
                server {
                    listen 127.0.0.1:\(front);
                    proxy_http_version 1.1;
                    proxy_set_header Host \(name);
                    proxy_set_header Origin https://\(name);
                    proxy_set_header Upgrade $http_upgrade;
                    proxy_set_header Connection $http_connection;
                    proxy_ssl_server_name on;
                    proxy_ssl_name \(name);
                    proxy_ssl_verify on;
                    proxy_ssl_trusted_certificate \(nginx.certificate);
                    location / { proxy_pass https://127.0.0.1:\(tls); }
                    location /outside/ { proxy_bind 127.0.0.2; proxy_pass https://127.0.0.1:\(tls)/; }
                    location /plain/ { proxy_pass http://127.0.0.1:\(http)/; }
                }
            """
        }

        func get(_ path: String) throws -> (status: Int, headers: [String: String], text: String) {
            let reply = try WebSocketClient.httpGet(url: "http://127.0.0.1:\(front)\(path)", timeout: 5)
            return (reply.status, reply.headers, String(decoding: reply.body, as: UTF8.self))
        }

        var webSocketURL: String { "ws://127.0.0.1:\(front)/" }
    }

    @Test(
        "through the site's TLS, the page loads and its WebSocket (Host and Origin https://NAME) gets welcome and a frame; SIGTERM closes it 1001; the restarted server takes the next"
    )
    func webSocketThroughTheSite() throws {
        let deployment = try Deployment()
        // The unit's LimitNOFILE leaves --max-clients whole.
        #expect(deployment.server.hasLine { $0.contains("descriptor limit") })
        #expect(deployment.server.output.contains("max-clients=\(deployment.maxClients)"))
        #expect(!deployment.server.output.contains("capped"), "\(deployment.server.output)")

        let page = try deployment.get("/")
        #expect(page.status == 200 && page.text.contains("<canvas"), "\(page.status)")

        let client = try WireClient(url: deployment.webSocketURL, room: "deploy")
        #expect(!client.id.isEmpty)
        _ = try client.waitForBinary()

        deployment.server.send(signal: SIGTERM)
        #expect(throws: WebSocketError.closed(code: 1001, reason: "going away")) {
            while try client.socket.receive(timeout: 3) != nil {}
            throw WireError("no close within 3 s")
        }
        try deployment.restartServer()
        let again = try WireClient(url: deployment.webSocketURL, room: "deploy")
        #expect(!again.id.isEmpty)
    }

    @Test("port 80 sends every page to https://NAME, the same path")
    func redirectsToTLS() throws {
        let deployment = try Deployment()
        let reply = try deployment.get("/plain/?room=lobby")
        #expect(reply.status == 301)
        #expect(reply.headers["location"] == "https://\(Self.name)/?room=lobby")
    }

    @Test("/healthz answers 200 ok through the site; /readyz and /metrics answer this machine and refuse others 403")
    func healthAndMetrics() throws {
        let deployment = try Deployment()
        let health = try deployment.get("/healthz")
        #expect(health.status == 200 && health.text.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        #expect(try deployment.get("/readyz").status == 200)
        let metrics = try deployment.get("/metrics")
        #expect(metrics.status == 200 && metrics.text.contains("# TYPE "), "\(metrics.status)")
        for path in ["/readyz", "/metrics"] {
            #expect(try deployment.get("/outside" + path).status == 403, "\(path)")
        }
        #expect(try deployment.get("/outside/healthz").status == 200)
    }
}
