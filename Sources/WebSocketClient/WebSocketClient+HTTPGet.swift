extension WebSocketClient {
    /// A minimal HTTP/1.1 `GET` over plain TCP, sent with `Connection: close`.
    ///
    /// Handles `Content-Length`, chunked and read-until-close bodies. Header names in the
    /// result are lower-cased. Any status is returned as is; only transport failures throw.
    public static func httpGet(url: String, timeout: Double) throws -> (
        status: Int, headers: [String: String], body: [UInt8]
    ) {
        let endpoint = try Endpoint(url, schemes: ["http": 80])
        let deadline = Deadline(seconds: timeout)
        let socket = try TCPSocket(host: endpoint.host, port: endpoint.port, deadline: deadline)
        let request =
            "GET \(endpoint.target) HTTP/1.1\r\n"
            + "Host: \(endpoint.hostHeader)\r\n"
            + "Accept: */*\r\n"
            + "Connection: close\r\n\r\n"
        try socket.write(Array(request.utf8), deadline: deadline)

        var queue = ByteQueue()
        let head = try HTTPResponseHead.read(from: socket, into: &queue, deadline: deadline)
        /// Reads more of the body; false at end of stream.
        func readMore() throws -> Bool {
            switch try socket.read(into: &queue, deadline: deadline) {
            case .data: return true
            case .endOfStream: return false
            case .timedOut: throw WebSocketError.timeout("reading the body of \(url)")
            }
        }
        let truncated = WebSocketError.protocolViolation("HTTP body of \(url) ended early")

        if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            var body: [UInt8] = []
            let crlf: [UInt8] = [13, 10]
            while true {
                guard let lineEnd = queue.firstIndex(of: crlf) else {
                    guard try readMore() else { throw truncated }
                    continue
                }
                let line = String(decoding: queue.consume(lineEnd + 2).dropLast(2), as: UTF8.self)
                guard let size = Int(line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces), radix: 16) else {
                    throw WebSocketError.protocolViolation("bad chunk size line: \(line)")
                }
                while queue.count < size + 2 {
                    guard try readMore() else { throw truncated }
                }
                body += queue.consume(size)
                _ = queue.consume(2)
                if size == 0 { return (head.status, head.headers, body) }
            }
        }
        if let length = head.headers["content-length"].flatMap({ Int($0) }) {
            while queue.count < length {
                guard try readMore() else { throw truncated }
            }
            return (head.status, head.headers, queue.consume(length))
        }
        while try readMore() {}
        return (head.status, head.headers, queue.consume(queue.count))
    }
}
