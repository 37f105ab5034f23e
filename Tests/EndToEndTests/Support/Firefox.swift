import Foundation
import Glibc
import LoopbackTools
import WebSocketClient

/// A headless Firefox driven over WebDriver BiDi, which Firefox speaks itself (no geckodriver):
/// one BiDi session on `ws://127.0.0.1:PORT/session`, each page a tab of its own (`newPage`).
///
/// The browser is `$FIREFOX` if set, else `/usr/lib/firefox-esr/firefox-esr` (Debian's
/// `firefox-esr`). Without it every Firefox test fails, saying how to install it: they never skip.
///
/// It runs with a fresh profile (and HOME) in a temp directory, removed by `close()`, whose
/// user.js keeps it from reaching for the network (there is none) and from first-run pages.
final class Firefox {
    static let defaultExecutable = "/usr/lib/firefox-esr/firefox-esr"
    static let startupTimeout = 30.0

    /// The browser to launch: `FIREFOX` from `environment` when set and not empty (a bare name is
    /// looked up in its `PATH`), else the default.
    static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        BrowserExecutable.find(variable: "FIREFOX", default: defaultExecutable, environment: environment)
    }

    /// The scratch profile's preferences. The Remote Agent's recommended preferences (on by default)
    /// already turn off updates, telemetry and most background fetches; these cover the rest of a
    /// first start, and give Web Audio a device: without one (a container, a server) an
    /// AudioContext never leaves "suspended", where headless Chromium has a fake device of its own.
    static let preferences = """
        user_pref("media.cubeb.force_mock_context", true);
        user_pref("browser.shell.checkDefaultBrowser", false);
        user_pref("browser.startup.homepage_override.mstone", "ignore");
        user_pref("browser.aboutwelcome.enabled", false);
        user_pref("datareporting.policy.dataSubmissionEnabled", false);
        user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
        user_pref("app.normandy.enabled", false);
        user_pref("browser.safebrowsing.update.enabled", false);
        user_pref("extensions.update.enabled", false);
        user_pref("network.captive-portal-service.enabled", false);
        user_pref("network.connectivity-service.enabled", false);

        """

    /// The fresh profile (and HOME) directory; `close()` removes it.
    var profile: URL { process.profile }
    let connection: BiDiConnection
    private let process: BrowserProcess
    /// Console messages by browsing context, as `BrowserPage.consoleMessages` has them.
    private var console: [String: [String]] = [:]
    private var closed = false

    /// A fixed display rate, in frames a second: headless Firefox's refresh driver then ticks at
    /// that rate (its `layout.frame_rate`), where headless Chromium's display is 60 Hz or unbounded.
    static func displayRate(_ hz: Int) -> String { "user_pref(\"layout.frame_rate\", \(hz));\n" }

    /// Launches `executable` (default: `Firefox.executable()`) headless with a fresh profile (its
    /// `preferences` and `more`, user.js lines) and opens a BiDi session. Throws
    /// `HarnessError.firefoxMissing`, which says how to install it, when there is no executable at that path.
    init(executable: String = Firefox.executable(), more: String = "") throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw HarnessError.firefoxMissing(path: executable)
        }
        let deadline = Deadline(seconds: Self.startupTimeout)
        process = try BrowserProcess(
            executable: executable, prefix: "e2e-firefox", environment: ["MOZ_CRASHREPORTER_DISABLE": "1"],
            prepare: {
                try (Self.preferences + more).write(
                    to: $0.appendingPathComponent("user.js"), atomically: true, encoding: .utf8)
            },
            arguments: { ["-profile", $0, "-no-remote", "--headless", "--remote-debugging-port", "0", "about:blank"] })
        do {
            let endpoint = try Self.discoverEndpoint(child: process.child, deadline: deadline)
            connection = try BiDiConnection(url: endpoint + "/session", timeout: deadline.remaining)
        } catch {
            process.end(grace: 0)
            throw error
        }
        connection.onEvent = { [unowned self] in record($0) }
        do {
            try connection.call("session.new", ["capabilities": [String: Any]()], timeout: deadline.remaining)
            try connection.call(
                "session.subscribe", ["events": ["log.entryAdded", "browsingContext.load"]],
                timeout: deadline.remaining)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// A new tab, in a container (user context) of its own: its storage starts empty, as a fresh
    /// Chromium profile's does.
    func newPage() throws -> FirefoxPage {
        try FirefoxPage(browser: self)
    }

    /// The console messages of browsing context `context` so far.
    func consoleMessages(of context: String) -> [String] { console[context] ?? [] }

    /// True once the browser process has exited.
    var hasExited: Bool { process.child.hasExited }

    /// Everything Firefox printed so far (its own logging, not the pages' consoles).
    var processOutput: String { process.child.output.text }

    /// Ends the session and closes the browser, waits for it to exit (SIGKILL to its pid after a
    /// deadline) and removes the profile directory. Safe to call repeatedly.
    func close() {
        guard !closed else { return }
        closed = true
        // The browser may drop the socket before replying; its exit is what matters.
        _ = try? connection.call("browser.close", timeout: 5)
        connection.close()
        process.end(grace: 10)
    }

    private func record(_ event: [String: Any]) {
        guard event["method"] as? String == "log.entryAdded", let params = event["params"] as? [String: Any],
            let source = params["source"] as? [String: Any], let context = source["context"] as? String
        else { return }
        let text = params["text"] as? String ?? "?"
        // "javascript" entries are uncaught errors; "console" ones name their method (log, error, …).
        let kind = params["type"] as? String == "javascript" ? "exception" : params["method"] as? String ?? "log"
        console[context, default: []].append("\(kind): \(text)")
    }

    /// Firefox prints "WebDriver BiDi listening on ws://127.0.0.1:PORT" on stderr once it takes
    /// connections.
    private static func discoverEndpoint(child: ChildProcess, deadline: Deadline) throws -> String {
        let marker = "WebDriver BiDi listening on "
        guard let line = child.output.waitForLine(timeout: deadline.remaining, where: { $0.contains(marker) }),
            let start = line.range(of: marker)?.upperBound
        else { throw HarnessError.firefoxDidNotStart(output: child.output.text) }
        return String(line[start...]).trimmingCharacters(in: .whitespaces)
    }
}
