import Foundation
import LoopbackTools
import Testing

/// The tick picker in the real page, driven with real mouse and key events (over CDP in Chromium;
/// its keys also in Firefox, over WebDriver BiDi: `BrowserFirefoxTests`): every tick
/// crossed is one `haptic` event; while its Haptics switch is on, the page plays each events
/// message's haptics as one `navigator.vibrate` pattern, a 10 ms pulse per tick spaced as the ticks
/// (README, "Haptics on the page"; docs/PROTOCOL.md, "What the page does with events"). The page
/// counts on `<html>`: data-haptics (events), data-vibrations (patterns the browser accepted),
/// data-clicks; a test-side observer (`Chromium.observePage`) records the messages and patterns.
@Suite(.serialized) struct BrowserPickerTests {
    static let picker = "document.querySelector('[data-widget=picker]')"
    static let value = "Number(\(picker)?.getAttribute('aria-valuenow'))"
    static let hapticsSwitch = "document.getElementById('haptics-switch')"
    static let soundSwitch = "document.getElementById('sound-switch')"

    static func count(_ name: String) -> String { "Number(document.documentElement.dataset.\(name))" }

    /// Loads the page at phone size, waits until it is connected, painted and shows the picker,
    /// and starts noting every text the live region is given (final values only, never ticks).
    func open(_ server: ServerProcess, query: String, _ engine: Engine = .chromium) throws -> any BrowserPage {
        try engine.openObserved(
            server.httpURL + query, ready: "\(Self.picker)?.getAttribute('aria-valuenow') !== null")
    }

    /// The centre of `selector`'s element (CSS px) and, for a widget, CSS px per scene point.
    func place(_ b: any BrowserPage, _ selector: String) throws -> (x: Double, y: Double, scale: Double) {
        let r = try #require(
            b.evaluate(
                """
                (() => { const el = document.querySelector(\(Self.js(selector))); const r = el.getBoundingClientRect();
                  const w = el.dataset.rect ? Number(el.dataset.rect.split(',')[2]) : r.width;
                  return [r.x + r.width / 2, r.y + r.height / 2, r.width / w]; })()
                """) as? [Double])
        return (r[0], r[1], r[2])
    }

    /// A slow horizontal drag of `points` scene points from the centre of `widget`: 20 moves 16 ms
    /// apart, then still for 100 ms before release (no fling: the picker eases onto the nearest tick).
    func drag(_ b: any BrowserPage, _ widget: String, by points: Double) throws {
        let p = try place(b, "[data-widget=\(widget)]")
        try b.perform(.stroke(from: p.x, p.y, by: points * p.scale, 0, steps: 20, interval: 0.016, hold: 0.1))
    }

    /// Clicks `selector`'s element with the mouse.
    func click(_ b: any BrowserPage, _ selector: String) throws {
        let p = try place(b, selector)
        try b.perform(.tap(x: p.x, y: p.y))
    }

    func counts(_ b: any BrowserPage) throws -> [Int] {
        let all = try #require(
            b.evaluate("[\(Self.count("haptics")), \(Self.count("vibrations")), \(Self.count("clicks"))]") as? [Any])
        return all.compactMap { ($0 as? NSNumber)?.intValue }
    }

    /// Checks the vibrate calls made since the `vibrations`-th against the batches of haptics the
    /// page played since the `batches`-th (a message's, or those sent ahead that came due together):
    /// one accepted call per batch, whose pattern has 10 ms pulses (at most 20) at least 10 ms
    /// apart, each starting when one of the ticks came (after the first), and every tick felt in a
    /// pulse that starts at most 20 ms before it. Returns what is wrong (nothing when all holds) and
    /// the number of clicks in each batch (a haptic counts for its `count`).
    func checkPatterns(_ b: any BrowserPage, batches: Int = 0, vibrations: Int = 0) throws -> (
        problems: [String], ticks: [Int]
    ) {
        let result = try #require(
            b.evaluate(
                """
                (() => {
                  const played = observed.played.slice(\(batches)), batches = played.map(p => p.ticks);
                  const calls = observed.vibrations.slice(\(vibrations));
                  const problems = [];
                  if (calls.length !== batches.length) problems.push(`${batches.length} batches, ${calls.length} calls`);
                  batches.forEach((ticks, i) => {
                    const call = calls[i], p = call?.pattern ?? [];
                    if (call && !call.accepted) problems.push(`call ${i} refused`);
                    const due = ticks.map(t => Math.round((t - ticks[0]) * 1000));
                    const starts = [];
                    let start = 0;
                    for (let k = 0; k < p.length; k += 2) {
                      starts.push(start);
                      if (p[k] !== 10) problems.push(`pattern ${p}: pulse ${k / 2} lasts ${p[k]} ms`);
                      if (k > 0 && p[k - 1] < 10) problems.push(`pattern ${p}: pause ${p[k - 1]} ms < 10`);
                      if (!due.includes(start)) problems.push(`pattern ${p}: pulse at ${start} ms, no tick then`);
                      start += p[k] + (p[k + 1] ?? 0);
                    }
                    if (starts.length > 20) problems.push(`pattern ${p}: ${starts.length} pulses`);
                    // Every tick is felt: in a pulse that starts at most 20 ms before it (its 10 ms and
                    // the 10 ms minimum pause), unless 20 pulses were played already.
                    if (starts.length < 20)
                      for (const d of due)
                        if (!starts.some(s => s <= d && d < s + 20)) problems.push(`pattern ${p}: tick at ${d} ms not felt`);
                  });
                  // A haptic past a message's budget stands for `count` clicks (docs/PROTOCOL.md, events).
                  return { problems, ticks: played.map(p => p.counts.reduce((n, c) => n + c, 0)) };
                })()
                """) as? [String: Any])
        return (
            result["problems"] as? [String] ?? ["no result"],
            (result["ticks"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.intValue }
        )
    }

    @Test("a slow 120-pt drag crosses 12 ticks, one a message: 12 haptics, 12 one-pulse vibrations; off: none")
    func dragFeelsEveryTick() throws {
        let server = try ServerProcess()
        let b = try open(server, query: "?scene=picker&room=drag")
        defer { b.close() }
        #expect(try b.evaluate(Self.value) as? Double == 0)
        #expect(try b.evaluate("\(Self.hapticsSwitch).checked") as? Bool == true)
        #expect(try b.evaluate("\(Self.soundSwitch).checked") as? Bool == false)
        #expect(try counts(b) == [0, 0, 0])

        // Content x 0 → 120 crosses the cell boundaries 5, 15, …, 115: ticks 1…12, one haptic
        // each. Released without velocity it eases onto tick 12 (x 120), crossing nothing more.
        try drag(b, "picker", by: -120)
        try b.waitFor("spoken.length >= 1", timeout: 5)
        #expect(try b.spoken() == ["12"], "the live region hears the final value only")
        #expect(try b.evaluate(Self.value) as? Double == 12)
        #expect(try b.evaluate("\(Self.picker).getAttribute('aria-valuetext')") as? String == "12")
        // A slow drag crosses at most one tick per events message: each is a one-pulse pattern.
        #expect(try counts(b) == [12, 12, 0], "haptic events, vibrations, clicks")
        let felt = try checkPatterns(b)
        #expect(felt.problems == [])
        #expect(felt.ticks == Array(repeating: 1, count: 12), "haptics per message")

        // The Haptics switch, clicked with the mouse, stops the vibrations but not the events.
        try click(b, "label:has(#haptics-switch)")
        try b.waitFor("!\(Self.hapticsSwitch).checked", timeout: 5)
        try drag(b, "picker", by: -120)
        try b.waitFor("spoken.length >= 2", timeout: 5)
        #expect(try b.spoken() == ["12", "24"])
        #expect(try b.evaluate(Self.value) as? Double == 24)
        #expect(try counts(b) == [24, 12, 0], "haptic events, vibrations, clicks")
        #expect(try b.evaluate("observed.vibrations.length") as? Int == 12, "no vibrate call while switched off")

        // The choice is remembered: a reload starts with the switch off.
        try b.navigate(server.httpURL + "?scene=picker&room=drag")
        try b.waitFor("document.documentElement.dataset.connection === 'open' && \(Self.value) === 24", timeout: 10)
        #expect(try b.evaluate("\(Self.hapticsSwitch).checked") as? Bool == false)
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("?haptics=off starts switched off; the switches work from the keyboard; End and Home feel every tick")
    func keyboard() throws { try keyboard(.chromium) }

    func keyboard(_ engine: Engine) throws {
        let server = try ServerProcess()
        let b = try open(server, query: "?scene=picker&room=keys&haptics=off", engine)
        defer { b.close() }
        #expect(try b.evaluate("\(Self.hapticsSwitch).checked") as? Bool == false)
        // Chromium has navigator.vibrate, Firefox none: there the page says so on the switch, counts
        // every haptic and vibrates never (README, "Haptics on the page").
        let vibrates = try #require(b.evaluate("typeof navigator.vibrate === 'function'") as? Bool)
        #expect(vibrates == (engine == .chromium))
        #expect(
            try b.evaluate("\(Self.hapticsSwitch).parentElement.title") as? String
                == (vibrates ? "" : "This browser cannot vibrate"))

        // End: ease from tick 0 to tick 100 (0.2 s), crossing 100 ticks; nothing vibrates.
        _ = try b.evaluate("\(Self.picker).focus()")
        try b.press("End")
        try b.waitFor("spoken.length >= 1", timeout: 5)
        #expect(try b.spoken() == ["100"])
        #expect(try b.evaluate(Self.value) as? Double == 100)
        #expect(try counts(b) == [100, 0, 0], "haptic events, vibrations, clicks")
        #expect(try b.evaluate("observed.vibrations.length") as? Int == 0)

        // Tab from the picker reaches the Haptics switch, then Click sound; Space turns each on.
        try b.press("Tab")
        #expect(try b.evaluate("document.activeElement.id") as? String == "haptics-switch")
        try b.press(" ")
        try b.waitFor("\(Self.hapticsSwitch).checked", timeout: 5)
        try b.press("Tab")
        #expect(try b.evaluate("document.activeElement.id") as? String == "sound-switch")
        try b.press(" ")
        try b.waitFor("\(Self.soundSwitch).checked", timeout: 5)

        // Home: back to tick 0 over 100 ticks (0.2 s), sent ahead and played as they come due,
        // several together where the page's timer wakes after more than one: each batch is one
        // vibration pattern with a pulse per tick, spaced as the ticks; clicks sound (at most one
        // per 12 ms of audio time, so at least one and at most one per haptic).
        let before = try b.evaluate("observed.played.length") as? Int ?? 0
        _ = try b.evaluate("\(Self.picker).focus()")
        try b.press("Home")
        try b.waitFor("spoken.length >= 2", timeout: 5)
        #expect(try b.spoken() == ["100", "0"])
        #expect(try b.evaluate(Self.value) as? Double == 0)
        let c = try counts(b)
        if vibrates {
            let felt = try checkPatterns(b, batches: before)
            #expect(felt.problems == [])
            #expect(felt.ticks.reduce(0, +) == 100 && felt.ticks.count < 100, "haptics per batch: \(felt.ticks)")
            #expect(c.count == 3 && c[0] == 200 && c[1] == felt.ticks.count, "haptic events, vibrations: \(c)")
        } else {
            #expect(c.count == 3 && c[0] == 200 && c[1] == 0, "haptic events, vibrations: \(c)")
            #expect(try b.evaluate("observed.vibrations.length") as? Int == 0)
        }
        #expect(c.count == 3 && (1...100).contains(c[2]), "clicks: \(c)")
        let stored = try b.evaluate(
            "[localStorage.getItem('scroll-widgets.haptics'), localStorage.getItem('scroll-widgets.sound')]")
        #expect(stored as? [String] == ["on", "on"])
    }

    @Test("a page nobody has touched yet: the browser refuses to vibrate, and nothing is counted as felt")
    func refusedVibration() throws {
        let server = try ServerProcess()
        let b = try open(server, query: "?scene=picker&room=remote")
        defer { b.close() }
        // Another client in the room moves the picker: the page gets the haptics without a user
        // gesture of its own, and Chromium's navigator.vibrate returns false without one.
        let other = try WireClient(server, room: "remote")
        try other.send(.action(.init(widget: "picker", action: "setValue", args: ["value": 10], t: 0)))
        try b.waitFor("spoken.length >= 1", timeout: 5)
        #expect(try b.spoken() == ["10"])
        let calls = try b.evaluate("observed.vibrations.map(v => v.accepted)") as? [Bool] ?? []
        #expect(!calls.isEmpty && calls.allSatisfy { !$0 }, "vibrate calls, accepted or not: \(calls)")
        #expect(try counts(b) == [10, 0, 0], "haptic events, vibrations, clicks")
    }

    @Test("demo scene: the ruler makes no haptics, the picker one per tick; the switches cover no widget")
    func demoScene() throws {
        let server = try ServerProcess()
        let b = try open(server, query: "?room=demo")
        defer { b.close() }
        try drag(b, "ruler", by: -100)
        try b.waitFor("spoken.length >= 1", timeout: 5)
        #expect(try b.spoken() == ["73.5 kg"])
        #expect(try counts(b) == [0, 0, 0])
        try drag(b, "picker", by: -120)
        try b.waitFor("spoken.length >= 2", timeout: 5)
        #expect(try b.spoken() == ["73.5 kg", "12"])
        #expect(try counts(b) == [12, 12, 0])
        #expect(try checkPatterns(b).problems == [])

        // The switches are shown, inside the viewport, and overlap no widget's rect.
        let overlaps = try b.evaluate(
            """
            (() => { const f = document.getElementById('feedback').getBoundingClientRect();
              if (f.width === 0 || f.height === 0 || f.left < 0 || f.top < 0 || f.right > innerWidth) return ['hidden'];
              return [...document.querySelectorAll('[data-widget]')].filter(el => { const r = el.getBoundingClientRect();
                return r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom; })
                .map(el => el.dataset.widget); })()
            """)
        #expect(overlaps as? [String] == [])
    }

    /// `text` as a JavaScript string literal.
    static func js(_ text: String) -> String {
        let array = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: array, as: UTF8.self).dropFirst().dropLast())
    }
}
