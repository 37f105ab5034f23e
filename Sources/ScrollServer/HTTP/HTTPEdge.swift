import CLibWebSockets
import Logging
import ScrollCore

#if canImport(Glibc)
    import Glibc
#endif

/// lws protocol 0: each connection as it is accepted (`AcceptGuard`), the static page, `/metrics`,
/// `/healthz` and `/readyz`, and the vetting of each WebSocket upgrade (docs/PROTOCOL.md, "HTTP"
/// and "Handshake"). The policy is `StaticFiles`, `OperationsPaths` and `UpgradeCheck`; here only
/// lws calls. The operations listener (`--metrics-port`) is another vhost on the same callback.
final class HTTPEdge {
    /// The static page (`--public`).
    let files: StaticFiles
    /// Who may open a WebSocket (`--allow-origin`) and with which subprotocol.
    let upgrades: UpgradeCheck
    /// `/metrics`, `/healthz`, `/readyz`, and where each is answered.
    let operations: OperationsPaths
    /// Accepting within the descriptor budget, pausing when it cannot.
    let accepts: AcceptGuard
    private let logger: Logger

    init(config: ServerConfig, logger: Logger, status: any OperationsStatus) throws {
        do {
            files = try StaticFiles(directory: config.publicDirectory)
        } catch {
            throw ServerStartError(description: error.description)
        }
        operations = OperationsPaths(metricsApart: config.metricsPort != nil, files: files, status: status)
        upgrades = UpgradeCheck(
            hosts: HostPolicy(names: config.serverNames), origins: OriginPolicy(allowing: config.allowedOrigins),
            subprotocol: ProtocolVersion.subprotocol)
        accepts = AcceptGuard(ceiling: config.socketCeiling, logger: logger)
        self.logger = logger
    }

    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ len: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            // From the listener (`wsi`), before any protocol: `input` is the new descriptor.
            return accepts.admit(Int32(truncatingIfNeeded: Int(bitPattern: input)), from: wsi)
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            // `input` names what the request upgrades to, matched by lws in any case (so here too).
            switch input.map({ String(cString: $0.assumingMemoryBound(to: CChar.self)).lowercased() }) {
            case "websocket":
                return confirmUpgrade(wsi)
            default:
                // lws would switch to HTTP/2 for `h2c`, where a WebSocket (RFC 8441) never comes
                // back here for its Origin and subprotocol: the upgrade is ignored, as RFC 9110
                // lets a server do, and the request answered over HTTP/1.1. (lws refuses any other
                // name itself, and HTTP/2 with prior knowledge is off.)
                let uri = Self.header(wsi, WSI_TOKEN_GET_URI) ?? Self.header(wsi, WSI_TOKEN_HEAD_URI) ?? ""
                // 1: answered; lws completes the transaction itself.
                return serve(wsi, path: Array(uri.utf8)) ? 1 : -1
            }
        case LWS_CALLBACK_HTTP:
            let path = input.map { Array(UnsafeRawBufferPointer(start: $0, count: len)) } ?? []
            guard serve(wsi, path: path) else { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case LWS_CALLBACK_RAW_ADOPT:
            // lws gives a request it does not take for HTTP (CONNECT) to protocol 0 as a raw
            // socket, which would stay open with nothing to say: close it.
            return -1
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, len)
        }
    }

    /// Answers a GET or HEAD of `path` from the public directory; false if it could not be written.
    private func serve(_ wsi: OpaquePointer, path: [UInt8]) -> Bool {
        let method = Self.method(wsi)
        let listener: OperationsPaths.Listener = rs_on_operations_vhost(wsi) != 0 ? .operations : .public
        let response =
            operations.respond(method: method, path: path, on: listener) ?? files.respond(method: method, path: path)
        if response.status >= 400 {
            logger.debug(
                "http refused",
                metadata: [
                    "status": "\(response.status)", "method": "\(method)",
                    "path": "\(String(decoding: path, as: UTF8.self))",
                ])
        }
        return write(response, to: wsi, headOnly: method == "HEAD")
    }

    /// 0: the upgrade goes ahead; 1: refused, the answer written (lws completes the transaction).
    private func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        // The operations listener has no WebSocket.
        if rs_on_operations_vhost(wsi) != 0 {
            return write(files.error(404, "Not found."), to: wsi, headOnly: false) ? 1 : -1
        }
        let verdict = upgrades.verdict(
            origin: Self.header(wsi, WSI_TOKEN_ORIGIN), host: Self.header(wsi, WSI_TOKEN_HOST),
            protocols: Self.header(wsi, WSI_TOKEN_PROTOCOL))
        guard case .refuse(let status, let message) = verdict else { return 0 }
        logger.info("refused upgrade", metadata: ["status": "\(status)", "reason": "\(message.dropLast())"])
        var response = files.error(status, "")
        response.body = Array(message.utf8)
        return write(response, to: wsi, headOnly: false) ? 1 : -1
    }

    private func write(_ response: StaticFiles.Response, to wsi: OpaquePointer, headOnly: Bool) -> Bool {
        let names = response.headers.map { strdup($0.name + ":") }
        let values = response.headers.map { strdup($0.value) }
        defer { for pointer in names + values { free(pointer) } }
        let written = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                response.body.withUnsafeBytes { body in
                    rs_http_respond(
                        wsi, response.status, namePointers.baseAddress, valuePointers.baseAddress,
                        response.headers.count, body.baseAddress, body.count, headOnly ? 1 : 0)
                }
            }
        }
        return written == 0
    }

    /// "GET", "HEAD", or another method's name (each has its own URI token in lws).
    private static func method(_ wsi: OpaquePointer) -> String {
        if rs_has_header(wsi, WSI_TOKEN_GET_URI) != 0 { return "GET" }
        if rs_has_header(wsi, WSI_TOKEN_HEAD_URI) != 0 { return "HEAD" }
        return "other"
    }

    private static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        guard rs_has_header(wsi, token) != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 1024)
        let n = rs_header(wsi, token, &buffer, Int32(buffer.count))
        return String(decoding: buffer[..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
