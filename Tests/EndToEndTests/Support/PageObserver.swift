import Foundation
import Testing

/// Test-side observers installed in the page before its own scripts run, without changing what
/// the page does: they only listen, and pass every call through.
extension BrowserPage {
    /// From the next navigation on, the page records in `window.observed`:
    /// - `events`: every event of every `events` message the server sends, in order (not those
    ///   sent ahead: see `handled`);
    /// - `batches`: each `events` message's events (one array per message);
    /// - `handled`: every event the page handles, as it plays it: those that came as they happened
    ///   and those sent ahead, each at its time (`SceneClient.events`, wrapped);
    /// - `played`: each batch of haptics the page plays (`Feedback.haptics`, which vibrates at once)
    ///   as `{ at, ticks, counts }`: `performance.now()` then, the haptics' room times, and the clicks
    ///   each stands for (`count`, or 1);
    /// - `vibrations`: each `navigator.vibrate` call as `{pattern, accepted, at}` (the pattern as
    ///   an array; `accepted` is what the browser returned; `at`, `performance.now()`), the real
    ///   call being made as before;
    /// - `frames`: how many times `<html>`'s `data-frames` changed, and `lastFrameAt`, the
    ///   `performance.now()` of the latest change.
    ///
    /// The page's own WebSocket is a subclass instance that adds one `message` listener; its
    /// handlers (`onmessage`) and everything it sends are untouched.
    func observePage() throws {
        try addInitScript(
            """
            (() => {
              const observed = window.observed = {
                events: [], batches: [], handled: [], played: [], vibrations: [], frames: 0, lastFrameAt: 0,
              };
              // By the page's own URL, so the modules are the page's (and a blank page skips them).
              const module = (path) => location.protocol.startsWith('http') ? import(location.origin + path) : Promise.reject();
              module('/js/client.js').then(({ SceneClient }) => {
                const events = SceneClient.prototype.events;
                SceneClient.prototype.events = function (batch) {
                  observed.handled.push(...batch);
                  return events.call(this, batch);
                };
              }, () => {});
              module('/js/feedback.js').then(({ Feedback }) => {
                const haptics = Feedback.prototype.haptics;
                Feedback.prototype.haptics = function (events) {
                  observed.played.push({ at: performance.now(), ticks: events.map((e) => e.t), counts: events.map((e) => e.count ?? 1) });
                  return haptics.call(this, events);
                };
              }, () => {});
              const NativeWebSocket = window.WebSocket;
              window.WebSocket = class extends NativeWebSocket {
                constructor(...args) {
                  super(...args);
                  this.addEventListener("message", (e) => {
                    if (typeof e.data !== "string") return;
                    let m; try { m = JSON.parse(e.data); } catch { return; }
                    if (m.type !== "events") return;
                    observed.events.push(...m.events);
                    observed.batches.push(m.events);
                  });
                }
              };
              if (typeof navigator.vibrate === "function") {
                const vibrate = navigator.vibrate.bind(navigator);
                navigator.vibrate = (pattern) => {
                  const accepted = vibrate(pattern);
                  observed.vibrations.push({ pattern: [].concat(pattern), accepted, at: performance.now() });
                  return accepted;
                };
              }
              new MutationObserver(() => { observed.frames += 1; observed.lastFrameAt = performance.now(); })
                .observe(document, { subtree: true, attributes: true, attributeFilter: ["data-frames"] });
            })();
            """)
    }
}

extension Chromium {
    /// A fresh browser on `url`, observed (`BrowserPage.loadObserved`).
    static func openObserved(_ url: String, ready: String) throws -> Chromium {
        let browser = try Chromium()
        try browser.loadObserved(url, ready: ready)
        return browser
    }
}

extension BrowserPage {
    /// Loads `url` at phone size (390 × 844 at 2×), observed from before the page loads; returns
    /// once the page is connected, painted and `ready` (a JS condition) holds, with every text the
    /// live region is given noted in `window.spoken`.
    func loadObserved(_ url: String, ready: String) throws {
        try setViewport(width: 390, height: 844, deviceScaleFactor: 2)
        try observePage()
        try navigate(url)
        try waitFor(
            "document.documentElement.dataset.connection === 'open' && "
                + "Number(document.documentElement.dataset.frames) > 0 && (\(ready))", timeout: 10)
        _ = try evaluate(
            """
            (() => { const live = document.getElementById('announcer'); window.spoken = [];
              new MutationObserver(() => spoken.push(live.textContent))
                .observe(live, { childList: true, characterData: true, subtree: true });
              return true; })()
            """)
    }

    /// The texts the live region was given, in order.
    func spoken() throws -> [String] { try evaluate("spoken") as? [String] ?? [] }
}

extension BrowserPage {
    /// CSS px of scene point (`x`, `y`) on the page's canvas (scenes 390 pt wide).
    func css(_ x: Double, _ y: Double) throws -> (x: Double, y: Double) {
        let r = try #require(
            evaluate(
                """
                (() => { const r = document.getElementById('canvas').getBoundingClientRect();
                  return [r.left, r.top, r.width / 390]; })()
                """) as? [Double])
        return (r[0] + x * r[2], r[1] + y * r[2])
    }
}
