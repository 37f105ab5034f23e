import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Protocol 0: the static page (docs/PROTOCOL.md, "HTTP"). The policy is `StaticFiles`; here
/// only lws calls.
extension WebSocketServer {
    func handleHTTP(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ len: Int
    ) -> Int32 {
        switch reason {
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
}
