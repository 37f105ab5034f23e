import Foundation

/// One page in a real browser, as the browser tests drive it: Chromium over the DevTools protocol
/// (`Chromium`), Firefox over WebDriver BiDi (`FirefoxPage`). A test written against this protocol
/// runs in either engine (`Engine`); what both do alike (waiting for a condition, observing the
/// page, where a scene point is) is written once, in the extensions below.
protocol BrowserPage: AnyObject {
    var engine: Engine { get }
    /// Navigates and waits for the page's load event.
    func navigate(_ url: String, timeout: Double) throws
    /// A viewport of `width`×`height` CSS pixels at `deviceScaleFactor` device pixels per CSS pixel.
    func setViewport(width: Int, height: Int, deviceScaleFactor: Double) throws
    /// Evaluates `js` in the page, awaiting it if it is a promise, and returns its value as
    /// JSON-decoded Foundation objects (nil for undefined and null). Throws the exception's text
    /// if it throws or rejects.
    func evaluate(_ js: String, timeout: Double) throws -> Any?
    /// Runs `source` in every document the page loads from now on, before the document's own scripts.
    func addInitScript(_ source: String) throws
    /// Plays `gesture` (`Gesture`: where its pointer is, and when) on the page.
    func perform(_ gesture: Gesture) throws
    /// Presses and releases `key` (a `KeyboardEvent.key`: "Tab", "PageUp", " ", "a", …) as a
    /// keyboard does: Tab moves the focus, Space and Enter activate what has it.
    func press(_ key: String) throws
    /// Types `text` into the focused element.
    func type(_ text: String) throws
    /// Runs `action` (a click that submits a form, say) and waits for the load it causes.
    func expectingLoad(timeout: Double, _ action: () throws -> Void) throws
    /// A PNG of the viewport.
    func screenshot() throws -> Data
    /// `console.*` calls and uncaught exceptions of the page, oldest first, as "log: text",
    /// "error: text", … and "exception: text".
    var consoleMessages: [String] { get }
    /// Closes the page (and whatever it alone uses). Safe to call repeatedly.
    func close()
}

/// The browser engines the tests drive. Chromium pages are each a browser of their own; Firefox
/// pages share one browser per suite (`.sharedFirefox`), each in a tab and a container of its own.
enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case chromium, firefox

    var description: String { rawValue }

    /// A fresh blank page.
    func openPage() throws -> any BrowserPage {
        switch self {
        case .chromium: try Chromium()
        case .firefox: try SharedFirefox.browser().newPage()
        }
    }

    /// A fresh page on `url` at phone size, observed from before it loads; returns once the page
    /// is connected, painted and `ready` (a JS condition) holds (`BrowserPage.loadObserved`).
    func openObserved(_ url: String, ready: String) throws -> any BrowserPage {
        let page = try openPage()
        try page.loadObserved(url, ready: ready)
        return page
    }
}

extension BrowserPage {
    func evaluate(_ js: String) throws -> Any? { try evaluate(js, timeout: 10) }
    func navigate(_ url: String) throws { try navigate(url, timeout: 10) }
    func expectingLoad(_ action: () throws -> Void) throws { try expectingLoad(timeout: 10, action) }

    /// Waits until the JS expression `condition` is truthy in the page. The polling runs in the
    /// page (every animation frame, or 50 ms when frames are not being produced), so the wait
    /// ends as soon as the condition holds.
    func waitFor(_ condition: String, timeout: Double) throws {
        let script = """
            new Promise((resolve, reject) => {
              const condition = () => (\(condition));
              const deadline = performance.now() + \(timeout * 1000);
              let lastError = null;
              const check = () => {
                try {
                  if (condition()) { resolve(true); return; }
                  lastError = null;
                } catch (e) { lastError = e; }
                if (performance.now() >= deadline) {
                  reject(new Error('waitFor timed out after \(timeout)s: ' + \(JS.string(condition))
                    + (lastError ? ' (last error: ' + lastError + ')' : '')));
                  return;
                }
                let fired = false;
                const next = () => { if (!fired) { fired = true; check(); } };
                requestAnimationFrame(next);
                setTimeout(next, 50);
              };
              check();
            })
            """
        _ = try evaluate(script, timeout: timeout + 5)
    }
}

/// JavaScript source text made from Swift values.
enum JS {
    /// `text` as a JavaScript string literal (JSON strings are valid JS).
    static func string(_ text: String) -> String {
        let array = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: array, as: UTF8.self).dropFirst().dropLast())
    }
}
