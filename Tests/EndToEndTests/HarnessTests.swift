import Foundation
import Testing
import WebSocketClient

/// Proves the end-to-end harness works before any product code is involved: the browser driver
/// (the WebSocket client on its own: WebSocketClientTests; the server launcher: LoopbackToolsTests).
/// The bodies that take an `Engine` run in Firefox too (`BrowserFirefoxTests.Harness`).

/// A `data:` URL for an HTML snippet (base64, so no character needs escaping).
func dataPage(_ html: String) -> String {
    "data:text/html;base64," + Data(html.utf8).base64EncodedString()
}

@Suite("Harness: headless Chromium over CDP", .serialized)
struct ChromiumHarnessTests {
    @Test func evaluatesJavaScriptInAPage() throws { try Self.evaluatesJavaScriptInAPage(.chromium) }

    static func evaluatesJavaScriptInAPage(_ engine: Engine) throws {
        let browser = try engine.openPage()
        defer { browser.close() }
        try browser.navigate(dataPage("<p id=greeting>hello</p>"))

        #expect(try browser.evaluate("1+2") as? Int == 3)
        #expect(try browser.evaluate("document.getElementById('greeting').textContent") as? String == "hello")
        #expect(try browser.evaluate("Promise.resolve('later')") as? String == "later")
        #expect(try browser.evaluate("undefined") == nil)
        let error = #expect(throws: HarnessError.self) { try browser.evaluate("null.property") }
        #expect(error.map { "\($0)".contains("TypeError") } == true)
    }

    @Test func waitForEndsWhenAConditionBecomesTrue() throws {
        try Self.waitForEndsWhenAConditionBecomesTrue(.chromium)
    }

    static func waitForEndsWhenAConditionBecomesTrue(_ engine: Engine) throws {
        let browser = try engine.openPage()
        defer { browser.close() }
        try browser.navigate(dataPage("<script>setTimeout(() => { window.ready = true; }, 300);</script>"))

        #expect(try browser.evaluate("window.ready === true") as? Bool == false)
        try browser.waitFor("window.ready === true", timeout: 5)

        let error = #expect(throws: HarnessError.self) { try browser.waitFor("window.never === 1", timeout: 0.2) }
        #expect(error.map { "\($0)".contains("window.never === 1") } == true)
    }

    @Test func mouseClickReachesAPageHandler() throws {
        let browser = try Chromium()
        defer { browser.close() }
        try browser.setViewport(width: 400, height: 300)
        try browser.navigate(
            dataPage(
                """
                <body style="margin:0;height:100vh"><script>
                window.clicks = [];
                addEventListener('click', e => clicks.push([e.clientX, e.clientY, e.button]));
                </script></body>
                """))

        try browser.mouse("mousePressed", x: 120, y: 80)
        try browser.mouse("mouseReleased", x: 120, y: 80)
        try browser.waitFor("clicks.length === 1", timeout: 5)
        #expect(try browser.evaluate("clicks[0]") as? [Int] == [120, 80, 0])
    }

    @Test func mouseTimestampsAndDragButtonsReachThePage() throws {
        let browser = try Chromium()
        defer { browser.close() }
        try browser.navigate(
            dataPage(
                """
                <body style="margin:0;height:100vh"><script>
                window.moves = [];
                addEventListener('mousemove', e => moves.push({t: e.timeStamp, buttons: e.buttons}));
                </script></body>
                """))

        let start = Date().timeIntervalSince1970
        try browser.mouse("mousePressed", x: 10, y: 10, timestamp: start)
        try browser.mouse("mouseMoved", x: 20, y: 10, timestamp: start + 0.100)
        try browser.mouse("mouseMoved", x: 30, y: 10, timestamp: start + 0.250)
        try browser.mouse("mouseReleased", x: 30, y: 10, timestamp: start + 0.300)
        try browser.waitFor("moves.length === 2", timeout: 5)

        let gap = try browser.evaluate("moves[1].t - moves[0].t") as? Double
        #expect(gap.map { abs($0 - 150) < 1 } == true, "page saw a gap of \(gap ?? .nan) ms, expected 150")
        #expect(try browser.evaluate("moves.map(m => m.buttons)") as? [Int] == [1, 1])
    }

    @Test func screenshotIsAPNGOfTheViewport() throws { try Self.screenshotIsAPNGOfTheViewport(.chromium) }

    static func screenshotIsAPNGOfTheViewport(_ engine: Engine) throws {
        let browser = try engine.openPage()
        defer { browser.close() }
        try browser.setViewport(width: 320, height: 200, deviceScaleFactor: 2)
        try browser.navigate(dataPage("<body style='background:#3a6'></body>"))

        let png = [UInt8](try browser.screenshot())
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR is the first chunk: width and height are big-endian at bytes 16..<24.
        let size =
            png.count >= 24
            ? (png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) })
            : (0, 0)
        #expect(size == (640, 400))

        // Saved as a test artefact: the same PNG, under its name (Firefox's prefixed), replacing an
        // earlier run's.
        let name = "harness-viewport"
        let file = TestArtifacts.screenshots.appendingPathComponent(
            engine == .chromium ? "\(name).png" : "\(engine)-\(name).png")
        try FileManager.default.createDirectory(at: TestArtifacts.screenshots, withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: file)
        let saved = try browser.saveScreenshot(name)
        #expect(saved.file == file)
        #expect(try Data(contentsOf: saved.file) == saved.png)
        #expect(Array(saved.png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test func chromiumComesFromTheCHROMIUMVariableWithADefault() {
        #expect(Chromium.executable(environment: [:]) == "/usr/lib/chromium/chromium")
        #expect(Chromium.executable(environment: ["CHROMIUM": ""]) == "/usr/lib/chromium/chromium")
        #expect(Chromium.executable(environment: ["CHROMIUM": "/opt/chrome/chrome"]) == "/opt/chrome/chrome")
        #expect(Chromium.executable(environment: ["CHROMIUM": "sh", "PATH": "/nonexistent:/bin"]) == "/bin/sh")
        #expect(Chromium.executable(environment: ["CHROMIUM": "no-such-browser", "PATH": "/bin"]) == "no-such-browser")
    }

    /// Without Chromium a browser test fails (never skips), and the error says how to get it.
    @Test func aMissingChromiumFailsSayingHowToInstallIt() {
        let missing = "/nonexistent-\(UUID().uuidString)/chromium"
        let error = #expect(throws: HarnessError.self) { try Chromium(executable: missing) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("Chromium not found at \(missing)"), "\(text)")
        #expect(text.contains("`make test` installs it"), "\(text)")
        #expect(
            text.contains("apt-get install -y --no-install-recommends chromium fonts-dejavu-core"), "\(text)")
        #expect(text.contains("set CHROMIUM"), "\(text)")
    }

    @Test func consoleMessagesAndExceptionsAreCollected() throws {
        try Self.consoleMessagesAndExceptionsAreCollected(.chromium)
    }

    static func consoleMessagesAndExceptionsAreCollected(_ engine: Engine) throws {
        let browser = try engine.openPage()
        defer { browser.close() }
        try browser.navigate(
            dataPage(
                """
                <script>
                console.log('hello', 42);
                console.error('bad');
                setTimeout(() => { throw new Error('boom'); });
                </script>
                """))
        // The messages come as events, read while replies are awaited: round trips until the last is in.
        let boom = { browser.consoleMessages.contains { $0.hasPrefix("exception:") && $0.contains("boom") } }
        let deadline = Deadline(seconds: 5)
        while !boom(), !deadline.hasPassed { _ = try browser.evaluate("new Promise(r => setTimeout(r, 20))") }

        #expect(browser.consoleMessages.contains("log: hello 42"))
        #expect(browser.consoleMessages.contains("error: bad"))
        #expect(boom(), "\(browser.consoleMessages)")
    }

    @Test func closeEndsTheBrowserAndRemovesItsProfile() throws {
        let browser = try Chromium()
        #expect(FileManager.default.fileExists(atPath: browser.profile.path))
        browser.close()
        #expect(browser.hasExited)
        #expect(!FileManager.default.fileExists(atPath: browser.profile.path))
    }

    @Test func webSocketClientSpeaksCDPToChromiumDirectly() throws {
        let browser = try Chromium()
        defer { browser.close() }
        let socket = try WebSocketClient(url: browser.browserWebSocketURL)
        defer { socket.close() }
        #expect(socket.negotiatedSubprotocol == nil)

        try socket.send(text: #"{"id":1,"method":"Browser.getVersion"}"#)
        let deadline = Deadline(seconds: 10)
        var product: String?
        while product == nil, !deadline.hasPassed {
            guard case .text(let text)? = try socket.receive(timeout: deadline.remaining),
                let reply = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                reply["id"] as? Int == 1
            else { continue }
            product = (reply["result"] as? [String: Any])?["product"] as? String
        }
        #expect(product?.contains("Chrome") == true, "product: \(product ?? "none")")
    }

    @Test(arguments: [100, 70_000, 1_000_000])
    func largeMessagesCrossTheDevToolsSocket(size: Int) throws {
        let browser = try Chromium()
        defer { browser.close() }
        // Client → browser: the expression itself is `size` bytes long.
        let literal = String(repeating: "a", count: size)
        #expect(try browser.evaluate("'\(literal)'.length") as? Int == size)
        // Browser → client: the reply carries `size` characters.
        let reply = try browser.evaluate("'b'.repeat(\(size))") as? String
        #expect(reply?.count == size)
    }
}
