/// What `/metrics`, `/healthz` and `/readyz` read: the switchboard, or a fake in tests.
package protocol OperationsStatus: AnyObject {
    /// The Prometheus text, read now.
    func metricsText() -> String
    /// nil when ready for clients, else why not.
    var unreadiness: String? { get }
}

/// `/metrics`, `/healthz` and `/readyz` (docs/PROTOCOL.md, "HTTP"; docs/OPERATIONS.md), without
/// lws: which listener answers which, and with what. The operations listener (`--metrics-port`)
/// serves these three and nothing else; once it exists, the public one answers 404 for `/metrics`.
package struct OperationsPaths {
    package enum Listener: Equatable { case `public`, operations }

    package static let metricsPath = "/metrics"
    package static let healthPath = "/healthz"
    package static let readyPath = "/readyz"
    /// The Prometheus text exposition format's own type.
    package static let metricsType = "text/plain; version=0.0.4; charset=utf-8"

    /// Whether `/metrics` is on the operations listener of its own (`--metrics-port`).
    let metricsApart: Bool
    /// Headers as on every other answer.
    let files: StaticFiles
    let status: any OperationsStatus

    package init(metricsApart: Bool, files: StaticFiles, status: any OperationsStatus) {
        self.metricsApart = metricsApart
        self.files = files
        self.status = status
    }

    /// The answer to `method` for `path` on `listener` if it is one of these paths (or anything on
    /// the operations listener); nil: the static files answer it.
    package func respond(method: String, path: [UInt8], on listener: Listener) -> StaticFiles.Response? {
        let answer: () -> StaticFiles.Response
        switch String(decoding: path, as: UTF8.self) {
        case Self.healthPath:
            answer = { files.text(200, "ok\n") }
        case Self.readyPath:
            answer = {
                guard let why = status.unreadiness else { return files.text(200, "ok\n") }
                return files.text(503, "not ready: \(why)\n")
            }
        case Self.metricsPath where metricsApart == (listener == .operations):
            answer = { files.text(200, status.metricsText(), type: Self.metricsType) }
        case Self.metricsPath:
            return files.error(404, "Not found.")
        default:
            guard listener == .operations else { return nil }
            return files.error(404, "Not found.")
        }
        return StaticFiles.serves(method) ? answer() : files.methodNotAllowed()
    }
}
