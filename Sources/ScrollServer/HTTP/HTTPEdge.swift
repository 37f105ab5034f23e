import CLibWebSockets
import Logging
import ScrollCore

#if canImport(Glibc)
    import Glibc
#endif

/// lws protocol 0: the static page, and the vetting of each WebSocket upgrade (docs/PROTOCOL.md,
/// "HTTP" and "Handshake"). The policy is `StaticFiles` and `UpgradeCheck`; here only lws calls.
final class HTTPEdge {
    /// The static page (`--public`).
    let files: StaticFiles
    /// Who may open a WebSocket (`--allow-origin`) and with which subprotocol.
    let upgrades: UpgradeCheck
    private let logger: Logger

    init(config: ServerConfig, logger: Logger) throws {
        do {
            files = try StaticFiles(directory: config.publicDirectory)
        } catch {
            throw ServerStartError(description: error.description)
        }
        upgrades = UpgradeCheck(
            origins: OriginPolicy(allowing: config.allowedOrigins), subprotocol: ProtocolVersion.subprotocol)
        self.logger = logger
    }

    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ len: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            // `input` names what the request upgrades to; only WebSocket is vetted (lws handles the
            // rest). lws matches the name in any case, so this must too: `Upgrade: WebSocket` is one.
            guard let input, String(cString: input.assumingMemoryBound(to: CChar.self)).lowercased() == "websocket"
            else { return 0 }
            return confirmUpgrade(wsi)
        case LWS_CALLBACK_HTTP:
            let path = input.map { Array(UnsafeRawBufferPointer(start: $0, count: len)) } ?? []
            let method = Self.method(wsi)
            let response = files.respond(method: method, path: path)
            if response.status >= 400 {
                logger.debug(
                    "http refused",
                    metadata: [
                        "status": "\(response.status)", "method": "\(method)",
                        "path": "\(String(decoding: path, as: UTF8.self))",
                    ])
            }
            guard write(response, to: wsi, headOnly: method == "HEAD") else { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case LWS_CALLBACK_RAW_ADOPT:
            // lws gives a request it does not take for HTTP (CONNECT) to protocol 0 as a raw
            // socket, which would stay open with nothing to say: close it.
            return -1
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, len)
        }
    }

    /// 0: the upgrade goes ahead; 1: refused, the answer written (lws completes the transaction).
    private func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
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
