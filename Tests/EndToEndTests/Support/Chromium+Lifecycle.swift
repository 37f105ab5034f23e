import Foundation
import WebSocketClient

/// What happens to a page in a real browser besides input: its tab hidden and shown, the network
/// gone and back. Each is the browser's own doing (the page sees the real events), not a script.
extension Chromium {
    /// Brings a new blank tab to the front: the page is hidden (`visibilitychange`,
    /// `document.hidden`) but keeps running, and still takes input sent to it.
    func hidePage() throws {
        let tab = try callBrowser("Target.createTarget", ["url": "about:blank"])
        guard let id = tab["targetId"] as? String else {
            throw HarnessError.devTools(method: "Target.createTarget", message: "no targetId in \(tab)")
        }
        try callBrowser("Target.activateTarget", ["targetId": id])
    }

    /// Brings the page's tab to the front again: it is visible.
    func showPage() throws {
        try callBrowser("Target.activateTarget", ["targetId": targetID])
    }

    /// Emulates the network going away (true) or coming back. Offline, `navigator.onLine` is
    /// false, the page gets `offline` (then `online`), and every new connection fails at once
    /// (a WebSocket closes with 1006); a WebSocket already open stays open in this emulation.
    func emulateOffline(_ offline: Bool) throws {
        try call("Network.enable")
        try call(
            "Network.emulateNetworkConditions",
            ["offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1])
    }

    /// Navigates to `url` and back in history, and returns how the page came back:
    /// "BackForwardCacheRestore" (kept in the back-forward cache: `pageshow` with `persisted`)
    /// or "Navigation" (loaded again).
    func visitAndComeBack(_ url: String, timeout: Double = 10) throws -> String {
        let deadline = Deadline(seconds: timeout)
        try navigate(url, timeout: deadline.remaining)
        let history = try call("Page.getNavigationHistory")
        guard let entries = history["entries"] as? [[String: Any]], let current = history["currentIndex"] as? Int,
            current > 0, let id = entries[current - 1]["id"]
        else {
            throw HarnessError.devTools(method: "Page.getNavigationHistory", message: "no entry before \(history)")
        }
        discardEvents(named: "Page.frameNavigated")
        try call("Page.navigateToHistoryEntry", ["entryId": id], timeout: deadline.remaining)
        let navigated = try waitForEvent("Page.frameNavigated", timeout: deadline.remaining)
        return navigated["type"] as? String ?? "\(navigated)"
    }
}
