import Foundation
import Glibc
import LoopbackTools

/// A few HTML pages on a loopback port, answered as an ordinary static web server would: without
/// `Cache-Control`. Chromium may then keep them in its back-forward cache, which widget-server's
/// own pages (`no-store`) never enter. One request per connection, each on its own thread; any
/// other path is a 404.
// @unchecked Sendable: the accept thread only reads `pages` (fixed at init) and the descriptor;
// `stopped` is guarded by `lock`.
final class PlainSite: @unchecked Sendable {
    let port: Int
    var origin: String { "http://127.0.0.1:\(port)" }

    private let pages: [String: String]
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Serves each of `pages` (path such as "/host.html" → its HTML) until `stop()`.
    init(pages: [String: String]) throws {
        self.pages = pages
        let (fd, port) = try LoopbackPort.bound(listening: 16)
        listener = fd
        self.port = port
        let thread = Thread { [self] in serve() }
        thread.name = "PlainSite"
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting and waits for the thread to end. Safe to call repeatedly.
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        done.wait()
        close(listener)
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func serve() {
        defer { done.signal() }
        while !isStopped {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            // Not inherited by the servers and browsers the tests start.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // Its own thread: a browser's speculative connection may send nothing for a while.
            let thread = Thread { [self] in
                answer(fd)
                close(fd)
            }
            thread.name = "PlainSite connection"
            thread.start()
        }
    }

    private func answer(_ fd: Int32) {
        var request: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: 5)
        while !request.containsHeaderEnd {
            guard (try? LoopbackSocket.read(fd, into: &request, deadline: deadline)) == true else { return }
        }
        // "GET /host.html?x HTTP/1.1": the path, without a query.
        let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let path = String(target.prefix { $0 != "?" })
        let body = Array((pages[path] ?? "not found").utf8)
        let head =
            "HTTP/1.1 \(pages[path] == nil ? "404 Not Found" : "200 OK")\r\n"
            + "Content-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        try? LoopbackSocket.write(fd, Array(head.utf8) + body)
    }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        count >= 4 && indices.dropLast(3).contains { self[$0...$0 + 3].elementsEqual([13, 10, 13, 10]) }
    }
}
