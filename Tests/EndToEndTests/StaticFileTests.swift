import Foundation
import LoopbackTools
import Testing

/// docs/PROTOCOL.md, "HTTP": the real server serves only its public directory, with security
/// headers on every answer; probed with raw HTTP over a socket.
@Suite struct StaticFileTests {
    /// A copy of Public/ (plus one file of each other served type) in a temporary directory,
    /// with `secret.txt` beside it — outside — and symlinks inside pointing out.
    final class Sandbox {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("public-\(UUID().uuidString)")
        var publicDir: URL { top.appendingPathComponent("Public") }
        static let secret = "TOPSECRET-\(UUID().uuidString)"

        init() throws {
            let fm = FileManager.default
            try fm.createDirectory(at: top, withIntermediateDirectories: true)
            try fm.copyItem(at: PackagePaths.publicDirectory, to: publicDir)
            try Data(Self.secret.utf8).write(to: top.appendingPathComponent("secret.txt"))
            try Data([0x89, 0x50, 0x4E, 0x47]).write(to: publicDir.appendingPathComponent("dot.png"))
            try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).write(
                to: publicDir.appendingPathComponent("dot.svg"))
            try Data("{}".utf8).write(to: publicDir.appendingPathComponent("data.json"))
            try fm.createSymbolicLink(atPath: publicDir.path + "/out.txt", withDestinationPath: "../secret.txt")
            try fm.createSymbolicLink(atPath: publicDir.path + "/up", withDestinationPath: "..")
            try fm.createSymbolicLink(atPath: publicDir.path + "/etc", withDestinationPath: "/etc")
        }

        deinit { try? FileManager.default.removeItem(at: top) }
    }

    /// The `content` of a file's CSP meta tag, read here independently of the server.
    static func metaPolicy(_ file: String) throws -> String {
        let html = try String(contentsOf: PackagePaths.publicDirectory.appendingPathComponent(file), encoding: .utf8)
        let marker = #"<meta http-equiv="Content-Security-Policy" content=""#
        let start = try #require(html.range(of: marker)).upperBound
        return String(html[start...].prefix { $0 != "\"" })
    }

    @Test("/ is index.html with nosniff, no-referrer and a CSP equal to its meta tag; embed.html gets its own")
    func securityHeaders() throws {
        let server = try ServerProcess()
        let page = try RawHTTP.request(server, "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("<canvas"))
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.headers["referrer-policy"] == "no-referrer")
        #expect(page.headers["content-security-policy"] == (try Self.metaPolicy("index.html")))
        #expect(page.headers["access-control-allow-origin"] == nil)

        let embed = try RawHTTP.request(server, "/embed.html")
        let embedPolicy = try Self.metaPolicy("embed.html")
        #expect(embedPolicy.contains("form-action 'self'"), "embed.html's own policy differs from index.html's")
        #expect(embed.headers["content-security-policy"] == embedPolicy)

        // Errors carry them too.
        let missing = try RawHTTP.request(server, "/nope.js")
        #expect(missing.status == 404)
        #expect(missing.headers["x-content-type-options"] == "nosniff")
        #expect(missing.headers["content-security-policy"] == (try Self.metaPolicy("index.html")))
    }

    @Test("embed.js, the modules it imports and embed.css may be loaded by pages of other origins")
    func cors() throws {
        let server = try ServerProcess()
        for path in ["/js/embed.js", "/js/connection.js", "/js/painter.js", "/embed.css"] {
            let reply = try RawHTTP.request(server, path)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.headers["access-control-allow-origin"] == "*", "\(path)")
            #expect(reply.headers["x-content-type-options"] == "nosniff", "\(path)")
        }
    }

    @Test(
        "Content-Type by extension",
        arguments: [
            ("/index.html", "text/html; charset=utf-8"), ("/js/app.js", "text/javascript; charset=utf-8"),
            ("/styles.css", "text/css; charset=utf-8"), ("/dot.png", "image/png"), ("/dot.svg", "image/svg+xml"),
            ("/data.json", "application/json"),
        ])
    func contentTypes(path: String, type: String) throws {
        let sandbox = try Sandbox()
        let server = try ServerProcess(arguments: ["--public", sandbox.publicDir.path])
        let reply = try RawHTTP.request(server, path)
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == type)
    }

    @Test("HEAD: the GET's headers and length, no body; other methods: 405 with Allow: GET, HEAD")
    func methods() throws {
        let server = try ServerProcess()
        let get = try RawHTTP.request(server, "/js/app.js")
        let head = try RawHTTP.request(server, "/js/app.js", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(get.body.count))
        #expect(head.headers["content-type"] == get.headers["content-type"])
        #expect(head.body.isEmpty)
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
            let reply = try RawHTTP.request(server, "/js/app.js", method: method)
            #expect(reply.status == 405, "\(method): \(reply.statusLine)")
            #expect(reply.headers["allow"] == "GET, HEAD", "\(method)")
        }
        // CONNECT is not HTTP to lws: the connection is closed, not left open.
        let connect = try RawHTTP.request(server, "/", method: "CONNECT")
        #expect(connect.status == nil || connect.status == 405)
    }

    @Test(
        "`..` above the root, in any encoding, is the root itself: the public index.html, never a byte from outside",
        arguments: ["/../", "/%2e%2e/", "/%2E%2E%2F", "/js/../../", "/.%2e/", "/%2e./"])
    func dotDotAtTheRoot(path: String) throws {
        let sandbox = try Sandbox()
        let server = try ServerProcess(arguments: ["--public", sandbox.publicDir.path])
        let reply = try RawHTTP.request(server, path)
        let index = try RawHTTP.request(server, "/")
        #expect(reply.status == 200, "\(path): \(reply.statusLine)")
        #expect(reply.body == index.body, "\(path) is the public index.html")
        #expect(!reply.text.contains(Sandbox.secret))
    }

    @Test(
        "path traversal in every encoding: 400 or 404 (or, for a NUL lws cannot parse, no answer); never a byte from outside",
        arguments: [
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt",
            "/%252e%252e/secret.txt", "/%252e%252e%252fsecret.txt", "/..\\secret.txt", "/..%5csecret.txt",
            "/%5c..%5csecret.txt", "/%c0%ae%c0%ae/secret.txt", "/%c0%ae%c0%ae%c0%afsecret.txt", "/..%00/secret.txt",
            "/secret.txt%00.html", "/out.txt%00", "//etc/passwd", "/%2fetc/passwd", "/etc/passwd", "/out.txt",
            "/up/secret.txt", "/js/../../secret.txt", "/js/%2e%2e/%2e%2e/secret.txt",
            "/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd", "/.%2e/secret.txt", "/%2e./secret.txt",
        ])
    func traversal(path: String) throws {
        let sandbox = try Sandbox()
        let server = try ServerProcess(arguments: ["--public", sandbox.publicDir.path])
        let reply = try RawHTTP.request(server, path)
        let nulUnparsed = path.contains("%00") && reply.status == nil
        #expect(reply.status == 400 || reply.status == 404 || nulUnparsed, "\(path): \(reply.statusLine)")
        #expect(!reply.text.contains(Sandbox.secret), "\(path) read the file outside")
        #expect(!reply.text.contains("root:"), "\(path) read /etc/passwd")
        // The sandbox itself is served: the refusals are not just a broken directory.
        #expect(try RawHTTP.request(server, "/js/app.js").status == 200)
        #expect(!server.hasExited)
    }
}
