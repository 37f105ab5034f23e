import Foundation
import WebSocketClient

/// A tab of a `Firefox`, in a container (user context) of its own, as a `BrowserPage`: commands go
/// to its browsing context over the browser's WebDriver BiDi session; gestures and keys are
/// WebDriver actions (`input.performActions`).
final class FirefoxPage: BrowserPage {
    let engine = Engine.firefox
    let browser: Firefox
    /// The tab's browsing context, and its container.
    let context: String
    let userContext: String
    /// Where each pointer source was left (a new one starts at 0, 0).
    private var pointerAt: [Gesture.Pointer: (x: Double, y: Double)] = [:]
    private var closed = false

    init(browser: Firefox) throws {
        self.browser = browser
        let bidi = browser.connection
        let container = try bidi.call("browser.createUserContext")
        guard let userContext = container["userContext"] as? String else {
            throw HarnessError.bidi(method: "browser.createUserContext", message: "no userContext in \(container)")
        }
        self.userContext = userContext
        let created: [String: Any]
        do {
            created = try bidi.call(
                "browsingContext.create", ["type": "tab", "userContext": userContext, "background": false])
        } catch {
            _ = try? bidi.call("browser.removeUserContext", ["userContext": userContext])
            throw error
        }
        guard let context = created["context"] as? String else {
            _ = try? bidi.call("browser.removeUserContext", ["userContext": userContext])
            throw HarnessError.bidi(method: "browsingContext.create", message: "no context in \(created)")
        }
        self.context = context
    }

    deinit { close() }

    private var bidi: BiDiConnection { browser.connection }

    func navigate(_ url: String, timeout: Double) throws {
        do {
            try bidi.call(
                "browsingContext.navigate", ["context": context, "url": url, "wait": "complete"], timeout: timeout)
        } catch HarnessError.bidi(_, let message) {
            throw HarnessError.navigationFailed(url: url, error: message)
        }
    }

    func setViewport(width: Int, height: Int, deviceScaleFactor: Double) throws {
        try bidi.call(
            "browsingContext.setViewport",
            [
                "context": context, "viewport": ["width": width, "height": height],
                "devicePixelRatio": deviceScaleFactor,
            ])
    }

    func evaluate(_ js: String, timeout: Double) throws -> Any? {
        let result = try bidi.call(
            "script.evaluate",
            [
                "expression": js, "target": ["context": context], "awaitPromise": true, "resultOwnership": "none",
            ], timeout: timeout)
        if result["type"] as? String == "exception" {
            let details = result["exceptionDetails"] as? [String: Any] ?? [:]
            throw HarnessError.javaScript(details["text"] as? String ?? "\(details)")
        }
        return RemoteValue.decode(result["result"] as? [String: Any] ?? [:])
    }

    func addInitScript(_ source: String) throws {
        try bidi.call(
            "script.addPreloadScript", ["functionDeclaration": "() => {\n\(source)\n}", "contexts": [context]])
    }

    /// Plays the steps in real time. Moves in a row at one velocity are one WebDriver move lasting
    /// as long as they do: Firefox interpolates it, sending a move every 17 ms or so (at whole CSS
    /// pixels) where the pointer is due by then, so the pace holds whatever an action costs to
    /// dispatch (each action takes 17 ms at least). A press or release where the pointer is waits
    /// for its time first; elsewhere the pointer moves there by then.
    func perform(_ gesture: Gesture) throws {
        var actions: [[String: Any]] = []
        var at = pointerAt[gesture.pointer] ?? (0, 0)
        var time = 0.0
        /// The moves not yet in `actions`: where and when they started, and the last of them.
        var run: (x: Double, y: Double, time: Double, last: Gesture.Step)?
        func move(to step: Gesture.Step, from start: Double) -> [String: Any] {
            [
                "type": "pointerMove", "x": step.x, "y": step.y, "duration": Self.milliseconds(step.time - start),
                "origin": "viewport",
            ]
        }
        for step in gesture.steps {
            if step.phase == .move {
                if let r = run, Self.continues(from: (r.x, r.y, r.time), through: r.last, to: step) {
                    run?.last = step
                } else {
                    if let r = run { actions.append(move(to: r.last, from: r.time)) }
                    run = (at.x, at.y, time, step)
                }
            } else {
                if let r = run { actions.append(move(to: r.last, from: r.time)) }
                run = nil
                if (step.x, step.y) != at {
                    actions.append(move(to: step, from: time))
                } else if step.time > time {
                    actions.append(["type": "pause", "duration": Self.milliseconds(step.time - time)])
                }
                actions.append(["type": step.phase == .down ? "pointerDown" : "pointerUp", "button": 0])
            }
            at = (step.x, step.y)
            time = step.time
        }
        if let r = run { actions.append(move(to: r.last, from: r.time)) }
        let source: [String: Any] = [
            "type": "pointer", "id": gesture.pointer.rawValue,
            "parameters": ["pointerType": gesture.pointer.rawValue], "actions": actions,
        ]
        try bidi.call(
            "input.performActions", ["context": context, "actions": [source]], timeout: 10 + gesture.duration)
        pointerAt[gesture.pointer] = at
    }

    private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

    /// True when `next` is where the straight run from `start` through `last`, at its pace, is at
    /// `next`'s time.
    private static func continues(
        from start: (x: Double, y: Double, time: Double), through last: Gesture.Step, to next: Gesture.Step
    ) -> Bool {
        guard last.time > start.time else { return false }
        let f = (next.time - start.time) / (last.time - start.time)
        return abs(start.x + (last.x - start.x) * f - next.x) < 1e-6
            && abs(start.y + (last.y - start.y) * f - next.y) < 1e-6
    }

    func press(_ key: String) throws {
        guard let k = KeyboardKey(key) else { throw HarnessError.unknownKey(key) }
        try keys([k.webDriverValue])
    }

    func type(_ text: String) throws {
        try keys(text.map(String.init))
    }

    func expectingLoad(timeout: Double, _ action: () throws -> Void) throws {
        let deadline = Deadline(seconds: timeout)
        bidi.discardEvents(named: "browsingContext.load")
        try action()
        _ = try bidi.waitForEvent("browsingContext.load", timeout: deadline.remaining) {
            $0["context"] as? String == self.context
        }
    }

    func screenshot() throws -> Data {
        let result = try bidi.call(
            "browsingContext.captureScreenshot", ["context": context, "origin": "viewport"], timeout: 20)
        guard let base64 = result["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw HarnessError.bidi(method: "browsingContext.captureScreenshot", message: "no image data in the reply")
        }
        return png
    }

    var consoleMessages: [String] { browser.consoleMessages(of: context) }

    /// Closes the tab with its container (the page's connections close with it). Safe to call repeatedly.
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? bidi.call("browser.removeUserContext", ["userContext": userContext])
    }

    /// Each key value pressed and released in turn.
    private func keys(_ values: [String]) throws {
        let actions = values.flatMap { [["type": "keyDown", "value": $0], ["type": "keyUp", "value": $0]] }
        try bidi.call(
            "input.performActions",
            ["context": context, "actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }
}
