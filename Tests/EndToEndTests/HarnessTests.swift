import Foundation
import Glibc
import Testing
import WebSocketClient

/// Proves the end-to-end harness works before any product code is involved: the browser driver
/// and the server launcher (the WebSocket client on its own: WebSocketClientTests).

/// A `data:` URL for an HTML snippet (base64, so no character needs escaping).
private func page(_ html: String) -> String {
    "data:text/html;base64," + Data(html.utf8).base64EncodedString()
}

@Suite("Harness: headless Chromium over CDP", .serialized)
struct ChromiumHarnessTests {
    @Test func evaluatesJavaScriptInAPage() throws {
        let browser = try Chromium()
        defer { browser.close() }
        try browser.navigate(page("<p id=greeting>hello</p>"))

        #expect(try browser.evaluate("1+2") as? Int == 3)
        #expect(try browser.evaluate("document.getElementById('greeting').textContent") as? String == "hello")
        #expect(try browser.evaluate("Promise.resolve('later')") as? String == "later")
        #expect(try browser.evaluate("undefined") == nil)
        let error = #expect(throws: HarnessError.self) { try browser.evaluate("null.property") }
        #expect(error.map { "\($0)".contains("TypeError") } == true)
    }

    @Test func waitForEndsWhenAConditionBecomesTrue() throws {
        let browser = try Chromium()
        defer { browser.close() }
        try browser.navigate(page("<script>setTimeout(() => { window.ready = true; }, 300);</script>"))

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
            page(
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
            page(
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

    @Test func screenshotIsAPNGOfTheViewport() throws {
        let browser = try Chromium()
        defer { browser.close() }
        try browser.setViewport(width: 320, height: 200, deviceScaleFactor: 2)
        try browser.navigate(page("<body style='background:#3a6'></body>"))

        let png = [UInt8](try browser.screenshot())
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR is the first chunk: width and height are big-endian at bytes 16..<24.
        let size =
            png.count >= 24
            ? (png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) })
            : (0, 0)
        #expect(size == (640, 400))

        // Saved as a test artefact: the same PNG, under its name, replacing an earlier run's.
        let name = "harness-viewport"
        try FileManager.default.createDirectory(at: TestArtifacts.screenshots, withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: TestArtifacts.screenshots.appendingPathComponent("\(name).png"))
        let saved = try browser.saveScreenshot(name)
        #expect(saved.file == TestArtifacts.screenshots.appendingPathComponent("\(name).png"))
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
        let browser = try Chromium()
        defer { browser.close() }
        try browser.navigate(
            page(
                """
                <script>
                console.log('hello', 42);
                setTimeout(() => { throw new Error('boom'); });
                setTimeout(() => { window.done = true; }, 50);
                </script>
                """))
        try browser.waitFor("window.done", timeout: 5)

        #expect(browser.consoleMessages.contains("log: hello 42"))
        #expect(browser.consoleMessages.contains { $0.hasPrefix("exception:") && $0.contains("boom") })
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

@Suite("Harness: ServerProcess with stand-in servers")
struct ServerProcessHarnessTests {
    /// Writes an executable shell script standing in for the server. Opened close-on-exec: a
    /// process another test forks meanwhile must not inherit the open file, or running the
    /// script fails with "Text file busy" (ETXTBSY) until that process execs.
    private func stub(_ body: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stub-server-\(UUID().uuidString).sh")
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else {
            throw HarnessError.launchFailed(executable: url.path, reason: "cannot create it: errno \(errno)")
        }
        defer { close(fd) }
        let bytes = Array(("#!/bin/sh\n" + body).utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            throw HarnessError.launchFailed(executable: url.path, reason: "cannot write it: errno \(errno)")
        }
        return url
    }

    @Test func parsesThePortFromTheListeningLine() throws {
        // `tail -f /dev/null` blocks until signalled, like a server.
        let script = try stub(
            """
            echo "args: $*"
            echo "widget-server listening on http://127.0.0.1:4567/ (room default)"
            exec tail -f /dev/null
            """)
        defer { try? FileManager.default.removeItem(at: script) }
        let server = try ServerProcess(arguments: ["--extra"], executable: script.path)
        #expect(server.port == 4567)
        #expect(server.httpURL == "http://127.0.0.1:4567/")
        #expect(server.wsURL == "ws://127.0.0.1:4567/")
        // Without a --state of their own, test servers keep no state: parallel tests share no file.
        #expect(server.output.contains("args: --host 127.0.0.1 --port 0 --extra --state none"))
        server.stop()
        #expect(server.hasExited)
    }

    @Test func aGivenPortIsPassedToTheServer() throws {
        let script = try stub(
            """
            echo "args: $*"
            echo "widget-server listening on http://127.0.0.1:4568/ (room default)"
            exec tail -f /dev/null
            """)
        defer { try? FileManager.default.removeItem(at: script) }
        let server = try ServerProcess(port: 4568, executable: script.path)
        defer { server.stop() }
        #expect(server.port == 4568)
        #expect(server.output.contains("args: --host 127.0.0.1 --port 4568"))
    }

    @Test func aServerThatExitsEarlyIsReportedWithItsOutput() throws {
        let script = try stub("echo 'bind failed' >&2\nexit 3\n")
        defer { try? FileManager.default.removeItem(at: script) }
        #expect {
            try ServerProcess(executable: script.path)
        } throws: { error in
            "\(error)".contains("exited before") && "\(error)".contains("bind failed")
        }
    }

    @Test func aMissingBinarySaysToBuildFirst() {
        #expect {
            try ServerProcess(executable: "/nonexistent/widget-server")
        } throws: { error in
            "\(error)".contains("swift build")
        }
    }
}
