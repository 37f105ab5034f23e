import Foundation

/// Status line and headers of an HTTP/1.1 response, as read off a socket.
struct HTTPResponseHead {
    let statusLine: String
    let status: Int
    /// Header names are lower-cased (HTTP names are case-insensitive); repeated
    /// headers are joined with ", " as RFC 9110 allows.
    let headers: [String: String]

    private static let terminator: [UInt8] = Array("\r\n\r\n".utf8)
    private static let maxLength = 64 * 1024

    /// Reads from `socket` until the blank line that ends the head, consuming the head from
    /// `queue` and leaving any bytes after it (body or frames) in place.
    static func read(from socket: TCPSocket, into queue: inout ByteQueue, deadline: Deadline) throws -> HTTPResponseHead
    {
        while true {
            if let end = queue.firstIndex(of: terminator) {
                let bytes = queue.consume(end + terminator.count)
                return try HTTPResponseHead(String(decoding: bytes.dropLast(terminator.count), as: UTF8.self))
            }
            guard queue.count < maxLength else {
                throw WebSocketError.protocolViolation("HTTP response head longer than \(maxLength) bytes")
            }
            switch try socket.read(into: &queue, deadline: deadline) {
            case .data: continue
            case .timedOut: throw WebSocketError.timeout("waiting for the HTTP response")
            case .endOfStream:
                throw WebSocketError.protocolViolation("connection closed before the HTTP response head ended")
            }
        }
    }

    init(_ text: String) throws {
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw WebSocketError.protocolViolation("malformed HTTP status line: \(statusLine)")
        }
        status = code
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw WebSocketError.protocolViolation("malformed HTTP header line: \(line)")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        self.headers = headers
    }
}
