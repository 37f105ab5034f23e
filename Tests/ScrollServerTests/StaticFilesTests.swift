import Foundation
import Testing

@testable import ScrollServer

// docs/PROTOCOL.md, "HTTP": only files inside the public directory's real path are served,
// each answer with the security headers.

/// A public directory in a fresh temporary directory, with `secret.txt` beside it (outside).
private final class TempPublic {
    let top: URL
    var publicPath: String { top.appendingPathComponent("pub").path }

    init() throws {
        top = FileManager.default.temporaryDirectory.appendingPathComponent("static-files-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: top.appendingPathComponent("pub/sub"), withIntermediateDirectories: true)
        try fm.createDirectory(at: top.appendingPathComponent("pub/empty"), withIntermediateDirectories: true)
        try write("secret.txt", "TOPSECRET")
        try write(
            "pub/index.html",
            #"<html><head><META HTTP-EQUIV="Content-Security-Policy" content="default-src 'self'; img-src data:"></head></html>"#
        )
        try write(
            "pub/other.html",
            #"<html><head><meta content="default-src 'none'" http-equiv="content-security-policy"></head></html>"#)
        try write("pub/plain.html", "<p>no policy</p>")
        try write("pub/app.js", "export {};")
        try write("pub/sub/index.html", "<p>sub</p>")
        try write("pub/.hidden", "hidden")
        try fm.createSymbolicLink(atPath: publicPath + "/out.txt", withDestinationPath: "../secret.txt")
        try fm.createSymbolicLink(atPath: publicPath + "/etc", withDestinationPath: "/etc")
        try fm.createSymbolicLink(atPath: publicPath + "/in.js", withDestinationPath: "app.js")
    }

    deinit { try? FileManager.default.removeItem(at: top) }

    private func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: top.appendingPathComponent(path))
    }
}

@Suite("Static files: resolving paths")
struct StaticFilesResolveTests {
    @Test("plain names inside the directory are found; / and a directory mean its index.html")
    func found() throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        #expect(files.resolve(Array("/app.js".utf8)) == .file(files.root + "/app.js"))
        #expect(files.resolve(Array("/".utf8)) == .file(files.root + "/index.html"))
        #expect(files.resolve(Array("//app.js".utf8)) == .file(files.root + "/app.js"))
        #expect(files.resolve(Array("/sub/".utf8)) == .file(files.root + "/sub/index.html"))
        #expect(files.resolve(Array("/in.js".utf8)) == .file(files.root + "/app.js"), "a symlink inside to inside")
    }

    @Test(
        "a path that could mean anything but a plain name is refused (400)",
        arguments: [
            "/../secret.txt", "/sub/../../secret.txt", "/..", "/./app.js", "/..\\secret.txt", "/sub\\..\\app.js",
            "/app.js\0.html", "/\u{7F}", "/a\nb", "app.js", "",
        ])
    func refused(path: String) throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        guard case .refused = files.resolve(Array(path.utf8)) else {
            Issue.record("\(path.debugDescription) → \(files.resolve(Array(path.utf8)))")
            return
        }
    }

    @Test("bytes that are not UTF-8 (overlong . as C0 AE) are refused")
    func notUTF8() throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        guard case .refused(let why) = files.resolve([0x2F, 0xC0, 0xAE, 0xC0, 0xAE, 0x2F] + Array("secret.txt".utf8))
        else {
            Issue.record("not refused")
            return
        }
        #expect(why.contains("UTF-8"))
    }

    @Test(
        "symlinks out, absolute-looking paths, hidden files, directories without index, missing files: 404",
        arguments: ["/out.txt", "/etc/passwd", "//etc/passwd", "/.hidden", "/empty/", "/nope.js", "/%2e%2e/secret.txt"])
    func notFound(path: String) throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        #expect(files.resolve(Array(path.utf8)) == .notFound)
        let response = files.respond(method: "GET", path: Array(path.utf8))
        #expect(response.status == 404)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("TOPSECRET"))
    }

    @Test("a public directory that does not exist is an error naming it")
    func missing() {
        #expect(throws: StaticFiles.DirectoryMissing.self) { try StaticFiles(directory: "/nonexistent/pub") }
    }
}

@Suite("Static files: responses")
struct StaticFilesResponseTests {
    func header(_ response: StaticFiles.Response, _ name: String) -> String? {
        response.headers.first { $0.name == name }?.value
    }

    @Test("every answer, errors too, carries nosniff, no-referrer and index.html's CSP")
    func securityHeaders() throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        for (method, path) in [("GET", "/app.js"), ("GET", "/nope"), ("GET", "/.."), ("POST", "/"), ("HEAD", "/")] {
            let r = files.respond(method: method, path: Array(path.utf8))
            #expect(header(r, "x-content-type-options") == "nosniff", "\(method) \(path)")
            #expect(header(r, "referrer-policy") == "no-referrer", "\(method) \(path)")
            #expect(
                header(r, "content-security-policy") == "default-src 'self'; img-src data:", "\(method) \(path)")
        }
    }

    @Test("an HTML file with its own CSP meta tag gets that policy; one without gets index.html's")
    func ownPolicy() throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        #expect(
            header(files.respond(method: "GET", path: Array("/other.html".utf8)), "content-security-policy")
                == "default-src 'none'")
        #expect(
            header(files.respond(method: "GET", path: Array("/plain.html".utf8)), "content-security-policy")
                == "default-src 'self'; img-src data:")
    }

    @Test("the page's own files: each HTML response's CSP is the meta tag of that file")
    func realPublic() throws {
        let files = try StaticFiles(directory: packageRoot + "/Public")
        for name in ["index.html", "embed.html"] {
            let html = try String(contentsOfFile: packageRoot + "/Public/" + name, encoding: .utf8)
            let r = files.respond(method: "GET", path: Array("/\(name)".utf8))
            let policy = try #require(header(r, "content-security-policy"))
            #expect(html.contains(#"<meta http-equiv="Content-Security-Policy" content="\#(policy)">"#), "\(name)")
            #expect(policy.contains("default-src 'self'"))
        }
    }

    @Test("methods other than GET and HEAD: 405 with Allow")
    func methods() throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        let r = files.respond(method: "DELETE", path: Array("/app.js".utf8))
        #expect(r.status == 405)
        #expect(header(r, "allow") == "GET, HEAD")
    }

    @Test(
        "Content-Type by extension",
        arguments: [
            ("a.html", "text/html; charset=utf-8"), ("a.js", "text/javascript; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"), ("a.png", "image/png"), ("a.svg", "image/svg+xml"),
            ("a.json", "application/json"), ("A.PNG", "image/png"), ("README", "application/octet-stream"),
        ])
    func types(name: String, type: String) {
        #expect(StaticFiles.contentType(of: "/srv/pub/" + name) == type)
    }

    @Test("scripts and style sheets may be read by other origins (Access-Control-Allow-Origin: *); pages may not")
    func cors() throws {
        let temp = try TempPublic()
        let files = try StaticFiles(directory: temp.publicPath)
        #expect(header(files.respond(method: "GET", path: Array("/app.js".utf8)), "access-control-allow-origin") == "*")
        #expect(header(files.respond(method: "GET", path: Array("/".utf8)), "access-control-allow-origin") == nil)
    }
}

private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
