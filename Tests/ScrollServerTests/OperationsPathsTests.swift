import Testing

@testable import ScrollServer

/// `/metrics`, `/healthz`, `/readyz` and which listener answers them (docs/PROTOCOL.md, "HTTP";
/// docs/OPERATIONS.md).
@Suite("Operations paths")
struct OperationsPathsTests {
    private final class Status: OperationsStatus {
        var unreadiness: String?
        var scrapes = 0
        func metricsText() -> String {
            scrapes += 1
            return "widget_clients 3.0\n"
        }
    }

    private let directory: TemporaryDirectory
    private let status = Status()

    init() throws { directory = try TemporaryDirectory() }

    private func paths(metricsApart: Bool) throws -> OperationsPaths {
        OperationsPaths(metricsApart: metricsApart, files: try StaticFiles(directory: directory.path), status: status)
    }

    private func get(
        _ paths: OperationsPaths, _ path: String, on listener: OperationsPaths.Listener = .public,
        method: String = "GET"
    ) -> StaticFiles.Response? {
        paths.respond(method: method, path: Array(path.utf8), on: listener)
    }

    private func text(_ r: StaticFiles.Response?) -> String { String(decoding: r?.body ?? [], as: UTF8.self) }
    private func type(_ r: StaticFiles.Response?) -> String? { r?.headers.first { $0.name == "content-type" }?.value }

    @Test("on the public port by default: /metrics is the Prometheus text (version 0.0.4), read at each request")
    func metricsOnPublic() throws {
        let p = try paths(metricsApart: false)
        let r = get(p, "/metrics")
        #expect(r?.status == 200)
        #expect(text(r) == "widget_clients 3.0\n")
        #expect(type(r) == "text/plain; version=0.0.4; charset=utf-8")
        #expect(r?.headers.contains { $0.name == "cache-control" && $0.value == "no-store" } == true)
        _ = get(p, "/metrics", method: "HEAD")
        #expect(status.scrapes == 2)
        #expect(get(p, "/index.html") == nil, "anything else is the static files'")
        #expect(get(p, "/metrics/") == nil)
    }

    @Test(
        "with --metrics-port the public port answers 404 for /metrics, the operations one serves only the three paths")
    func metricsApart() throws {
        let p = try paths(metricsApart: true)
        #expect(get(p, "/metrics")?.status == 404)
        #expect(status.scrapes == 0)
        #expect(get(p, "/metrics", on: .operations)?.status == 200)
        #expect(get(p, "/healthz", on: .operations)?.status == 200)
        #expect(get(p, "/readyz", on: .operations)?.status == 200)
        for other in ["/", "/index.html", "/metricsx", "/js/app.js"] {
            #expect(get(p, other, on: .operations)?.status == 404, "\(other)")
        }
        #expect(get(p, "/healthz")?.status == 200, "health stays on the public port too")
    }

    @Test("/healthz: 200 ok while the process serves; /readyz: 200 ok, or 503 with the reason")
    func healthAndReadiness() throws {
        let p = try paths(metricsApart: false)
        #expect(get(p, "/healthz")?.status == 200)
        #expect(text(get(p, "/healthz")) == "ok\n")
        #expect(text(get(p, "/readyz")) == "ok\n")
        status.unreadiness = "stopping"
        let r = get(p, "/readyz")
        #expect(r?.status == 503)
        #expect(text(r) == "not ready: stopping\n")
        #expect(get(p, "/healthz")?.status == 200, "alive while not ready")
    }

    @Test("only GET and HEAD: another method gets 405 with Allow, and nothing is read")
    func methods() throws {
        let p = try paths(metricsApart: false)
        for method in ["POST", "PUT", "DELETE"] {
            for path in ["/metrics", "/healthz", "/readyz"] {
                let r = get(p, path, method: method)
                #expect(r?.status == 405)
                #expect(r?.headers.contains { $0.name == "allow" && $0.value == "GET, HEAD" } == true)
            }
        }
        #expect(status.scrapes == 0)
    }
}
