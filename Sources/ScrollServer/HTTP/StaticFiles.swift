import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The static page: answers a GET or HEAD with a file inside the public directory's real path,
/// and nothing else (docs/PROTOCOL.md, "HTTP"). Every answer, errors too, carries the security
/// headers. Pure apart from reading files; the lws bridge writes what `respond` returns.
package struct StaticFiles: Sendable {
    package struct Response: Equatable {
        package var status: UInt32
        /// Lower-case names; the bridge adds Content-Length.
        package var headers: [Header]
        package var body: [UInt8]
    }

    package struct Header: Equatable, Sendable {
        package var name: String
        package var value: String
    }

    package struct DirectoryMissing: Error, CustomStringConvertible {
        package var description: String
    }

    /// The public directory's real path (symlinks resolved).
    package let root: String
    /// The Content-Security-Policy of every response but an HTML file with a policy of its own:
    /// the one in `index.html`'s meta tag, so the header and the tag agree.
    package let defaultPolicy: String
    /// For a public directory whose index.html has no CSP meta tag.
    static let fallbackPolicy = "default-src 'self'; object-src 'none'; base-uri 'none'"
    /// Files are read whole; the page's are a few kilobytes.
    static let maxFileBytes = 16 << 20

    package init(directory: String) throws(DirectoryMissing) {
        guard let real = Self.realPath(directory), Self.isDirectory(real) else {
            throw DirectoryMissing(description: "the public directory \(directory) does not exist")
        }
        root = real
        let index = Self.contents(of: real + "/index.html").flatMap(Self.metaPolicy)
        defaultPolicy = index ?? Self.fallbackPolicy
    }

    /// The answer to `method` (as sent) for `path`, the request's path as lws hands it on
    /// (percent-decoded once, query removed).
    package func respond(method: String, path: [UInt8]) -> Response {
        guard Self.serves(method) else { return methodNotAllowed() }
        switch resolve(path) {
        case .refused(let why):
            return error(400, "Bad request: \(why).")
        case .notFound:
            return error(404, "Not found.")
        case .file(let real):
            guard let body = Self.contents(of: real) else { return error(404, "Not found.") }
            let type = Self.contentType(of: real)
            var policy = defaultPolicy
            if type.hasPrefix("text/html"), let own = Self.metaPolicy(body) { policy = own }
            var headers = securityHeaders(type: type, policy: policy)
            // Module scripts and their imports are fetched with CORS: a page on another origin
            // can embed a widget (`<scroll-widget>`, docs/EMBEDDING.md) only if these allow it.
            if real.hasSuffix(".js") || real.hasSuffix(".css") {
                headers.append(Header(name: "access-control-allow-origin", value: "*"))
            }
            return Response(status: 200, headers: headers, body: body)
        }
    }

    /// Only GET and HEAD are served.
    package static func serves(_ method: String) -> Bool { method == "GET" || method == "HEAD" }

    /// The answer to any other method.
    package func methodNotAllowed() -> Response {
        var response = error(405, "Method not allowed: only GET and HEAD are served here.")
        response.headers.append(Header(name: "allow", value: "GET, HEAD"))
        return response
    }

    /// An error answer: a short text with the same security headers as any file.
    package func error(_ status: UInt32, _ text: String) -> Response { self.text(status, text + "\n") }

    /// A text answer made here, not read from a file, with the same security headers.
    package func text(_ status: UInt32, _ body: String, type: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: securityHeaders(type: type, policy: defaultPolicy), body: Array(body.utf8))
    }

    private func securityHeaders(type: String, policy: String) -> [Header] {
        [
            Header(name: "content-type", value: type),
            Header(name: "x-content-type-options", value: "nosniff"),
            Header(name: "referrer-policy", value: "no-referrer"),
            Header(name: "content-security-policy", value: policy),
            Header(name: "cache-control", value: "no-store"),
        ]
    }

    // MARK: resolving a path

    enum Resolution: Equatable {
        case file(String)
        case notFound
        case refused(String)
    }

    /// A path is refused outright if it could mean anything but a plain name under the root
    /// (`..`, a backslash, a control character, a NUL, bytes that are not UTF-8); otherwise it
    /// is found only if its real path (symlinks resolved) is a regular file inside the root.
    func resolve(_ path: [UInt8]) -> Resolution {
        guard path.first == UInt8(ascii: "/") else { return .refused("the path must start with /") }
        guard !path.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            return .refused("control characters in the path")
        }
        guard !path.contains(UInt8(ascii: "\\")) else { return .refused("a backslash in the path") }
        guard let text = String(validating: path, as: UTF8.self) else { return .refused("the path is not UTF-8") }
        let segments = text.split(separator: "/")
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else {
            return .refused("the path may not contain . or ..")
        }
        // Hidden files (".git", editor droppings) are not part of the page.
        guard !segments.contains(where: { $0.hasPrefix(".") }) else { return .notFound }
        let candidate = segments.isEmpty ? root : root + "/" + segments.joined(separator: "/")
        guard var real = Self.realPath(candidate), isInside(real) else { return .notFound }
        if Self.isDirectory(real) {
            guard let index = Self.realPath(real + "/index.html"), isInside(index) else { return .notFound }
            real = index
        }
        return Self.isRegularFile(real) ? .file(real) : .notFound
    }

    private func isInside(_ real: String) -> Bool { real == root || real.hasPrefix(root + "/") }

    // MARK: files

    /// The file's bytes, read without following a symlink in its last component (`real` has
    /// none; one put there since is not followed); nil if unreadable, not regular, or too large.
    static func contents(of real: String) -> [UInt8]? {
        // Non-blocking: a FIFO put in place of a file must not hold the only service thread.
        let fd = Glibc.open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maxFileBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return Array(bytes[..<count])
    }

    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        let ext = name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
        return [
            "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
            "css": "text/css; charset=utf-8", "json": "application/json", "png": "image/png",
            "svg": "image/svg+xml", "txt": "text/plain; charset=utf-8", "ico": "image/x-icon",
        ][ext] ?? "application/octet-stream"
    }

    /// The `content` of a `<meta http-equiv="Content-Security-Policy" content="…">` tag (double
    /// quotes, as in Public/), or nil.
    static func metaPolicy(_ html: [UInt8]) -> String? {
        // ASCII-only lower case: the same byte offsets as `html`.
        let lower = html.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard let marker = find(Array("http-equiv=\"content-security-policy\"".utf8), in: lower, from: 0),
            let tagStart = lower[..<marker].lastIndex(of: UInt8(ascii: "<")),
            let close = lower[marker...].firstIndex(of: UInt8(ascii: ">")),
            let start = find(Array("content=\"".utf8), in: Array(lower[..<close]), from: tagStart)
        else { return nil }
        let valueStart = start + "content=\"".utf8.count
        guard let end = html[valueStart..<close].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        // It becomes a header: whitespace runs (a tag spread over lines) are one space, and
        // anything but printable ASCII refuses the tag (a line break would split the header).
        let words = html[valueStart..<end].split(whereSeparator: { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
        let value = words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        guard !value.isEmpty, value.utf8.allSatisfy({ (0x21...0x7E).contains($0) || $0 == 0x20 }) else { return nil }
        return value
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
