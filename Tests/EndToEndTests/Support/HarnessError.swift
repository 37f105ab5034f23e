/// Failures of the end-to-end harness itself, worded to say what to do next.
enum HarnessError: Error, CustomStringConvertible {
    case launchFailed(executable: String, reason: String)
    case serverBinaryMissing(path: String)
    case serverDidNotStart(reason: String, output: String)
    case chromiumMissing(path: String)
    case chromiumDidNotStart(output: String)
    case devTools(method: String, message: String)
    case navigationFailed(url: String, error: String)
    case javaScript(String)
    case timeout(String)

    var description: String {
        switch self {
        case let .launchFailed(executable, reason):
            return "cannot launch \(executable): \(reason)"
        case .serverBinaryMissing(let path):
            return "server binary not found at \(path): run `swift build` first, or set WIDGET_SERVER_BIN"
        case let .serverDidNotStart(reason, output):
            return "server did not start: \(reason)\n--- server output ---\n\(output)"
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
