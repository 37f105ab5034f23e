import Foundation
import LoopbackTools
import Testing

/// docs/EMBEDDING.md, "Another origin": a page served from one origin embeds a widget from a
/// widget server on another. The module scripts load (Access-Control-Allow-Origin: *) and the
/// WebSocket is let in only where the server was started with `--allow-origin` for the page.
@Suite(.serialized) struct BrowserCrossOriginTests {
    @Test(
        "a page on another origin: the element connects to a server that allows it, and is refused by one that does not"
    )
    func embedFromAnotherOrigin() throws {
        // The host page's own server (any static server would do; this one serves a temp directory).
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("host-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: site) }
        try Data("<!doctype html><title>placeholder</title>".utf8).write(to: site.appendingPathComponent("index.html"))
        let host = try ServerProcess(arguments: ["--public", site.path])
        let hostOrigin = "http://127.0.0.1:\(host.port)"

        let allowing = try ServerProcess(arguments: ["--allow-origin", hostOrigin])
        let refusing = try ServerProcess()
        let a = "127.0.0.1:\(allowing.port)", r = "127.0.0.1:\(refusing.port)"
        // Written once the ports are known (files are read at each request).
        let page = """
            <!doctype html><html><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' http://\(a); \
            connect-src ws://\(a) ws://\(r); style-src 'self'">
            <script type="module" src="http://\(a)/js/embed.js"></script>
            </head><body>
            <scroll-widget id="allowed" scene="ruler"></scroll-widget>
            <scroll-widget id="refused" scene="ruler" server="http://\(r)"></scroll-widget>
            </body></html>
            """
        try Data(page.utf8).write(to: site.appendingPathComponent("host.html"))

        let b = try Chromium()
        defer { b.close() }
        try b.setViewport(width: 390, height: 844)
        try b.navigate(host.httpURL + "host.html")
        let allowed = "document.getElementById('allowed')", refused = "document.getElementById('refused')"
        try b.waitFor(
            "customElements.get('scroll-widget') && \(allowed).connectionState === 'open' "
                + "&& \(allowed).framesPainted > 0 && \(allowed).value === '72.5'", timeout: 10)
        try b.waitFor("\(refused).connectionState === 'offline'", timeout: 10)
        #expect(try b.evaluate("\(refused).framesPainted") as? Double == 0)
        let refusal = refusing.output.components(separatedBy: "\n").first { $0.contains("refused upgrade") } ?? ""
        #expect(refusal.contains("status=403") && refusal.contains(hostOrigin), "\(refusing.output)")
        #expect(!allowing.output.contains("refused upgrade"))
    }
}
