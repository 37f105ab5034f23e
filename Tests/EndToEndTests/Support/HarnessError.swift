/// Failures of the browser harness, worded to say what to do next (starting
/// processes: `LaunchError`).
enum HarnessError: Error, CustomStringConvertible {
    case chromiumMissing(path: String)
    case chromiumDidNotStart(output: String)
    case devTools(method: String, message: String)
    case navigationFailed(url: String, error: String)
    case javaScript(String)
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
        case let .devTools(method, message):
            return "CDP \(method) failed: \(message)"
        case let .navigationFailed(url, error):
            return "navigation to \(url) failed: \(error)"
        case .javaScript(let text):
            return "JavaScript exception: \(text)"
        case .timeout(let what):
            return "timed out \(what)"
        }
    }
}
