/// Failures of the browser harness, worded to say what to do next (starting
/// processes: `LaunchError`).
enum HarnessError: Error, CustomStringConvertible {
    case chromiumMissing(path: String)
    case chromiumDidNotStart(output: String)
    case firefoxMissing(path: String)
    case firefoxDidNotStart(output: String)
    case noSharedFirefox
    case devTools(method: String, message: String)
    case bidi(method: String, message: String)
    case navigationFailed(url: String, error: String)
    case javaScript(String)
    case unknownKey(String)
    case timeout(String)

    var description: String {
        switch self {
        case .chromiumMissing(let path):
            return """
                Chromium not found at \(path): the browser tests need headless Chromium. `make test` installs it; \
                or run `apt-get install -y --no-install-recommends chromium fonts-dejavu-core` (Debian); \
                or set CHROMIUM to the path of a Chromium executable.
                """
        case .chromiumDidNotStart(let output):
            return "Chromium did not report a DevTools endpoint\n--- chromium output ---\n\(output)"
        case .firefoxMissing(let path):
            return """
                Firefox not found at \(path): the Firefox browser tests need Firefox ESR. `make test` installs it; \
                or run `apt-get install -y --no-install-recommends firefox-esr` (Debian); \
                or set FIREFOX to the path of a Firefox executable.
                """
        case .firefoxDidNotStart(let output):
            return "Firefox did not report a WebDriver BiDi endpoint\n--- firefox output ---\n\(output)"
        case .noSharedFirefox:
            return
                "Firefox pages are opened inside a suite with the .sharedFirefox trait (it starts and stops the browser)"
        case let .devTools(method, message):
            return "CDP \(method) failed: \(message)"
        case let .bidi(method, message):
            return "WebDriver BiDi \(method) failed: \(message)"
        case let .navigationFailed(url, error):
            return "navigation to \(url) failed: \(error)"
        case .javaScript(let text):
            return "JavaScript exception: \(text)"
        case .unknownKey(let key):
            return "no key \(JS.string(key)) in KeyboardKey's table: add it there"
        case .timeout(let what):
            return "timed out \(what)"
        }
    }
}
