import Foundation
import Glibc
import LoopbackTools
import WebSocketClient

/// A headless Chromium with one page, driven over the DevTools protocol.
///
/// The browser is `$CHROMIUM` if set, else `/usr/lib/chromium/chromium` (Debian's `chromium`).
/// Without it every browser test fails, saying how to install it: they never skip.
///
/// Each instance has its own fresh profile (and HOME) in a temp directory, removed by
/// `close()`. Page-level calls go to a target made with `Target.createTarget` and
/// attached in flat mode, so everything travels over the one browser WebSocket.
final class Chromium {
    static let defaultExecutable = "/usr/lib/chromium/chromium"
    static let startupTimeout = 20.0
    /// Headless Chromium's display runs at 60 Hz. With this flag a page that changes something in
    /// every frame gets its next frame as soon as the last is drawn (hundreds a second here); a
    /// page that changes nothing still gets about 60 (`BrowserTrackTests`, docs/BENCHMARKS.md).
    static let unlimitedFrameRate = "--disable-frame-rate-limit"

    /// The browser to launch: `CHROMIUM` from `environment` when set and not empty (a bare name,
    /// such as `chromium`, is looked up in its `PATH`), else the default.
    static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        BrowserExecutable.find(variable: "CHROMIUM", default: defaultExecutable, environment: environment)
    }

    /// The browser-level DevTools WebSocket URL (`ws://127.0.0.1:PORT/devtools/browser/ID`).
    let browserWebSocketURL: String
    /// `console.*` calls and uncaught exceptions of the page, oldest first, as
    /// "log: text" / "exception: text".
    private(set) var consoleMessages: [String] = []

    /// The fresh profile (and HOME) directory; `close()` removes it.
    var profile: URL { process.profile }
    private let process: BrowserProcess
    private let devTools: DevToolsConnection
    private var sessionID = ""
    /// The page's target (its tab).
    private(set) var targetID = ""
    private var leftButtonDown = false
    /// The earliest timestamp (s since the epoch) the next `perform` may start at.
    var nextGestureTime = 0.0
    private var closed = false

    /// Launches `executable` (default: `Chromium.executable()`) headless with a fresh profile and
    /// attaches to a blank page. Throws `HarnessError.chromiumMissing`, which says how to install
    /// it, when there is no executable at that path. `flags` are added to the usual command line
    /// (`unlimitedFrameRate`, say).
    init(executable: String = Chromium.executable(), flags: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw HarnessError.chromiumMissing(path: executable)
        }
        let deadline = Deadline(seconds: Self.startupTimeout)
        process = try BrowserProcess(executable: executable, prefix: "e2e-chromium") {
            [
                "--headless=new", "--no-sandbox", "--remote-debugging-port=0", "--user-data-dir=\($0)",
                "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--hide-scrollbars",
            ] + flags + ["about:blank"]
        }
        do {
            browserWebSocketURL = try Self.discoverEndpoint(
                child: process.child, profile: process.profile, deadline: deadline)
            devTools = try DevToolsConnection(url: browserWebSocketURL, timeout: deadline.remaining)
        } catch {
            process.end(grace: 0)
            throw error
        }
        devTools.onEvent = { [unowned self] in record($0) }
        do {
            try attachPage(timeout: deadline.remaining)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    // MARK: - Protocol

    /// Calls a CDP method on the page session.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], timeout: Double = 10) throws -> [String: Any] {
        try devTools.call(method, params, sessionID: sessionID, timeout: timeout)
    }

    /// Calls a browser-level CDP method (`Browser.*`, `Target.*`).
    @discardableResult
    func callBrowser(_ method: String, _ params: [String: Any] = [:], timeout: Double = 10) throws -> [String: Any] {
        try devTools.call(method, params, sessionID: nil, timeout: timeout)
    }

    /// Waits for the page session's next event named `method`; returns its params.
    func waitForEvent(_ method: String, timeout: Double = 10) throws -> [String: Any] {
        try devTools.waitForEvent(method, sessionID: sessionID, timeout: timeout)
    }

    /// Forgets the events named `method` received so far: `waitForEvent` then waits for a new one.
    func discardEvents(named method: String) {
        devTools.discardEvents(named: method)
    }

    // MARK: - Page

    /// Navigates and waits for the page's load event.
    func navigate(_ url: String, timeout: Double) throws {
        let deadline = Deadline(seconds: timeout)
        devTools.discardEvents(named: "Page.loadEventFired")
        let result = try call("Page.navigate", ["url": url], timeout: deadline.remaining)
        if let error = result["errorText"] as? String {
            throw HarnessError.navigationFailed(url: url, error: error)
        }
        _ = try waitForEvent("Page.loadEventFired", timeout: deadline.remaining)
    }

    /// Emulates a desktop viewport of `width`×`height` CSS pixels.
    func setViewport(width: Int, height: Int, deviceScaleFactor: Double = 1) throws {
        try call(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": width, "height": height, "deviceScaleFactor": deviceScaleFactor, "mobile": false,
            ])
    }

    /// Evaluates `js` in the page, awaiting it if it is a promise, and returns its value
    /// as JSON-decoded Foundation objects (nil for undefined and null). Throws the
    /// exception's text if it throws or rejects.
    func evaluate(_ js: String, timeout: Double) throws -> Any? {
        let result = try call(
            "Runtime.evaluate",
            [
                "expression": js, "returnByValue": true, "awaitPromise": true,
            ], timeout: timeout)
        if let details = result["exceptionDetails"] as? [String: Any] {
            let exception = details["exception"] as? [String: Any]
            let text = exception?["description"] as? String ?? details["text"] as? String ?? "\(details)"
            throw HarnessError.javaScript(text)
        }
        let remote = result["result"] as? [String: Any] ?? [:]
        if let special = remote["unserializableValue"] as? String {  // NaN, Infinity, -0, 1n
            return Double(special) ?? special
        }
        let value = remote["value"]
        return value is NSNull ? nil : value
    }

    /// Dispatches a left-button mouse event at CSS pixel (`x`, `y`).
    ///
    /// - Parameters:
    ///   - type: `mousePressed`, `mouseMoved` or `mouseReleased`.
    ///   - timestamp: Event time in seconds since the epoch, as CDP expects; the page sees
    ///     it as the event's `timeStamp`. Omitted: the browser uses the current time.
    ///   - buttons: Bitmask of held buttons; by default 1 while the left button is down
    ///     (from `mousePressed` until `mouseReleased`), so moves in between are drags.
    func mouse(_ type: String, x: Double, y: Double, timestamp: Double? = nil, buttons: Int? = nil) throws {
        let held = buttons ?? (type == "mouseReleased" ? 0 : type == "mousePressed" || leftButtonDown ? 1 : 0)
        var params: [String: Any] = [
            "type": type, "x": x, "y": y, "buttons": held,
            "button": type == "mouseMoved" && held & 1 == 0 ? "none" : "left",
        ]
        if type != "mouseMoved" { params["clickCount"] = 1 }
        if let timestamp { params["timestamp"] = timestamp }
        try call("Input.dispatchMouseEvent", params)
        if type == "mousePressed" { leftButtonDown = true }
        if type == "mouseReleased" { leftButtonDown = false }
    }

    /// Dispatches a one-finger touch event (touch point id 0) at CSS pixel (`x`, `y`); the page
    /// sees it as touch events and pointer events with `pointerType` "touch".
    ///
    /// - Parameters:
    ///   - type: `touchStart`, `touchMove`, `touchEnd` or `touchCancel` (these two lift the finger
    ///     where it last was: CDP sends them without touch points, so `x` and `y` are not used).
    ///   - timestamp: Event time in seconds since the epoch, as for `mouse`.
    func touch(_ type: String, x: Double = 0, y: Double = 0, timestamp: Double? = nil) throws {
        let lifts = type == "touchEnd" || type == "touchCancel"
        var params: [String: Any] = ["type": type, "touchPoints": lifts ? [] : [["x": x, "y": y, "id": 0]]]
        if let timestamp { params["timestamp"] = timestamp }
        try call("Input.dispatchTouchEvent", params)
    }

    /// Dispatches a mouse wheel event at CSS pixel (`x`, `y`) scrolling by (`dx`, `dy`) pixels
    /// (the page sees `deltaMode` 0; positive `dy` scrolls down). At device scale factor 1 the page
    /// sees exactly these deltas; with a larger factor emulated, Chromium divides them by it.
    func wheel(x: Double, y: Double, dx: Double = 0, dy: Double, timestamp: Double? = nil) throws {
        var params: [String: Any] = ["type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy]
        if let timestamp { params["timestamp"] = timestamp }
        try call("Input.dispatchMouseEvent", params)
    }

    /// Presses and releases a key that types no text (`PageUp`, `Home`, …) in the focused element;
    /// the page sees it as `KeyboardEvent.key`.
    func key(_ key: String) throws {
        for type in ["rawKeyDown", "keyUp"] {
            try call("Input.dispatchKeyEvent", ["type": type, "key": key, "code": key])
        }
    }

    /// A PNG of the viewport.
    func screenshot() throws -> Data {
        let result = try call("Page.captureScreenshot", ["format": "png"], timeout: 20)
        guard let base64 = result["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw HarnessError.devTools(method: "Page.captureScreenshot", message: "no image data in the reply")
        }
        return png
    }

    /// True once the browser process has exited.
    var hasExited: Bool { process.child.hasExited }

    /// Everything Chromium printed so far (its own logging, not the page's console).
    var processOutput: String { process.child.output.text }

    /// Asks the browser to quit, waits for it (SIGKILL after a deadline) and removes the
    /// profile directory. Safe to call repeatedly.
    func close() {
        guard !closed else { return }
        closed = true
        // The browser may drop the socket before replying; its exit is what matters.
        _ = try? callBrowser("Browser.close", timeout: 5)
        devTools.close()
        process.end(grace: 10)
    }

    // MARK: - Internals

    private func attachPage(timeout: Double) throws {
        let deadline = Deadline(seconds: timeout)
        let target = try callBrowser("Target.createTarget", ["url": "about:blank"], timeout: deadline.remaining)
        guard let targetID = target["targetId"] as? String else {
            throw HarnessError.devTools(method: "Target.createTarget", message: "no targetId in \(target)")
        }
        let attached = try callBrowser(
            "Target.attachToTarget", ["targetId": targetID, "flatten": true],
            timeout: deadline.remaining)
        guard let session = attached["sessionId"] as? String else {
            throw HarnessError.devTools(method: "Target.attachToTarget", message: "no sessionId in \(attached)")
        }
        sessionID = session
        self.targetID = targetID
        try call("Page.enable", timeout: deadline.remaining)
        try call("Runtime.enable", timeout: deadline.remaining)
    }

    private func record(_ event: [String: Any]) {
        guard event["sessionId"] as? String == sessionID, let params = event["params"] as? [String: Any] else { return }
        switch event["method"] as? String {
        case "Runtime.consoleAPICalled":
            let args = params["args"] as? [[String: Any]] ?? []
            let text = args.map { arg in
                arg["value"].map { "\($0)" } ?? arg["description"] as? String ?? arg["type"] as? String ?? "?"
            }.joined(separator: " ")
            consoleMessages.append("\(params["type"] as? String ?? "log"): \(text)")
        case "Runtime.exceptionThrown":
            let details = params["exceptionDetails"] as? [String: Any] ?? [:]
            let exception = details["exception"] as? [String: Any]
            let text = exception?["description"] as? String ?? details["text"] as? String ?? "?"
            consoleMessages.append("exception: \(text)")
        default:
            break
        }
    }

    /// Chromium prints "DevTools listening on ws://…" on stderr; the DevToolsActivePort
    /// file in the profile (port, then path) is the fallback.
    private static func discoverEndpoint(child: ChildProcess, profile: URL, deadline: Deadline) throws -> String {
        let marker = "DevTools listening on "
        if let line = child.output.waitForLine(timeout: deadline.remaining, where: { $0.contains(marker) }),
            let start = line.range(of: marker)?.upperBound
        {
            return String(line[start...]).trimmingCharacters(in: .whitespaces)
        }
        let file = profile.appendingPathComponent("DevToolsActivePort")
        if let contents = try? String(contentsOf: file, encoding: .utf8) {
            let lines = contents.split(whereSeparator: \.isNewline)
            if lines.count >= 2, let port = Int(lines[0]) {
                return "ws://127.0.0.1:\(port)\(lines[1])"
            }
        }
        throw HarnessError.chromiumDidNotStart(output: child.output.text)
    }
}
