import Foundation
import LoopbackTools
import Testing

/// Every key each widget lists, pressed with real key events on its focused element in the page
/// (docs/PROTOCOL.md, `key`). Keys covered elsewhere: the ruler's PageUp, ArrowLeft and Home
/// (`BrowserRulerTests`), the picker's Home and End (`BrowserPickerTests`), the carousel's End
/// (`BrowserCarouselTests`), Enter on +9 and Space on −1 (`BrowserRollerTests`). Each key
/// here is pressed once the one before has settled (its final value or selection received), so
/// every step is counted from a widget at rest.
@Suite(.serialized) struct BrowserWidgetKeysTests {
    static func widget(_ id: String) -> String { "document.querySelector('[data-widget=\(id)]')" }
    static func finals(_ id: String) -> String {
        "observed.events.filter(e => e.widget === '\(id)' && e.type === 'value' && e.final)"
    }

    /// Presses `key` on the focused widget `id` and waits for its `count`-th final value; returns it.
    func press(_ b: Chromium, _ key: String, _ id: String, final count: Int) throws -> Double? {
        try b.key(key)
        try b.waitFor("\(Self.finals(id)).length >= \(count)", timeout: 5)
        return try b.evaluate("\(Self.finals(id))[\(count - 1)].value") as? Double
    }

    @Test("ruler: → and ↑ +0.1, ↓ −0.1, PageDown −1.0, End 999.0 the short way round, then PageUp wraps to 9.0")
    func ruler() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?scene=ruler&room=ruler-keys",
            ready: "\(Self.widget("ruler"))?.getAttribute('aria-valuenow') !== null")
        defer { b.close() }
        _ = try b.evaluate("\(Self.widget("ruler")).focus()")
        #expect(try press(b, "ArrowRight", "ruler", final: 1) == 72.6)
        #expect(try press(b, "ArrowUp", "ruler", final: 2) == 72.7)
        #expect(try press(b, "ArrowDown", "ruler", final: 3) == 72.6)
        #expect(try press(b, "PageDown", "ruler", final: 4) == 71.6)
        // End is the last label, 999.0 kg, reached the short way: down through 8.5 and the wrap
        // (63.5 kg) rather than up (927.4 kg).
        #expect(try press(b, "End", "ruler", final: 5) == 999.0)
        // PageUp is 10 ticks on, past the wrap (WIDGETS.md §1: 8.5 follows 999.4): 999.0 → 999.4
        // is 4, 8.5 is the 5th, 9.0 the 10th.
        #expect(try press(b, "PageUp", "ruler", final: 6) == 9.0)
        #expect(try press(b, "ArrowDown", "ruler", final: 7) == 8.9)
        #expect(
            try b.evaluate("\(Self.widget("ruler")).getAttribute('aria-valuetext')") as? String == "8.9 kg")
        #expect(
            try b.spoken() == ["72.6 kg", "72.7 kg", "72.6 kg", "71.6 kg", "999.0 kg", "9.0 kg", "8.9 kg"])
    }

    @Test("picker: → and ↑ +1, PageUp +10, ↓ and ← −1, PageDown −10 and clamped at 0; a haptic per tick crossed")
    func picker() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?scene=picker&room=picker-keys",
            ready: "\(Self.widget("picker"))?.getAttribute('aria-valuenow') !== null")
        defer { b.close() }
        _ = try b.evaluate("\(Self.widget("picker")).focus()")
        #expect(try press(b, "ArrowRight", "picker", final: 1) == 1)
        #expect(try press(b, "ArrowUp", "picker", final: 2) == 2)
        #expect(try press(b, "PageUp", "picker", final: 3) == 12)
        #expect(try press(b, "ArrowDown", "picker", final: 4) == 11)
        #expect(try press(b, "ArrowLeft", "picker", final: 5) == 10)
        #expect(try press(b, "PageDown", "picker", final: 6) == 0)
        // 1 + 1 + 10 + 1 + 1 + 10 ticks crossed, one `moved` and one haptic each (sent ahead with
        // each key's glide, played as they come due).
        let haptics = try b.evaluate("observed.handled.filter(e => e.type === 'haptic').length") as? Int
        #expect(haptics == 24)
        let moved = try b.evaluate("observed.handled.filter(e => e.type === 'moved').map(e => e.value)") as? [Double]
        let up: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], down: [Double] = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
        #expect(moved == up + [11, 10] + down)
        // PageDown at 0 is clamped to 0 (0…N): it rests where it was, crossing nothing; End then
        // crosses every tick to N = 100.
        #expect(try press(b, "PageDown", "picker", final: 7) == 0)
        #expect(try b.evaluate("Number(document.documentElement.dataset.haptics)") as? Double == 24)
        #expect(try press(b, "End", "picker", final: 8) == 100)
        #expect(
            try b.evaluate("\(Self.finals("picker")).map(e => e.value)") as? [Double] == [1, 2, 12, 11, 10, 0, 0, 100])
        #expect(try b.evaluate("Number(document.documentElement.dataset.haptics)") as? Double == 124)
        #expect(try b.evaluate("\(Self.widget("picker")).getAttribute('aria-valuenow')") as? String == "100")
    }

    @Test("roller buttons: +1, +9, +99 and −1 each act on Enter and on Space when focused")
    func rollerButtons() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?scene=roller&room=button-keys",
            ready: "document.querySelectorAll('#semantics [role=button]').length === 5")
        defer { b.close() }
        var count = 0
        /// Focuses button `id`, presses `key` and returns the roller's next final value.
        func press(_ id: String, _ key: String) throws -> Double? {
            _ = try b.evaluate("\(Self.widget(id)).focus()")
            try b.press(key)
            count += 1
            try b.waitFor("\(Self.finals("roller")).length >= \(count)", timeout: 10)
            return try b.evaluate("\(Self.finals("roller"))[\(count - 1)].value") as? Double
        }
        // docs/PROTOCOL.md, "Widget actions": each adds to the number the roller is heading for.
        #expect(try press("rollerPlus1", "Enter") == 1)
        #expect(try press("rollerPlus1", " ") == 2)
        #expect(try press("rollerPlus9", "Enter") == 11)
        #expect(try press("rollerPlus99", " ") == 110)
        #expect(try press("rollerPlus99", "Enter") == 209)
        #expect(try press("rollerMinus1", "Enter") == 208)
        #expect(try b.spoken() == ["1", "2", "11", "110", "209", "208"])
        #expect(try b.evaluate("window.scrollY") as? Int == 0, "Space did not scroll the page")
    }

    @Test("carousel: ← and ↑ previous, → and ↓ next, Home first; Delete and Backspace delete the selection, not Custom")
    func carousel() throws {
        let server = try ServerProcess()
        let listbox = Self.widget("carousel")
        let b = try Chromium.openObserved(
            server.httpURL + "?scene=carousel&room=carousel-keys",
            ready: "\(listbox)?.querySelectorAll('[role=option]').length > 0")
        defer { b.close() }
        let events = "observed.events.filter(e => e.widget === 'carousel').map(e => `${e.type} ${e.index} ${e.name}`)"
        var count = 0
        /// Presses `key` and waits for the carousel's events to reach `expected` (the new ones).
        func press(_ key: String, _ expected: String...) throws {
            try b.key(key)
            count += expected.count
            try b.waitFor("\(events).length >= \(count)", timeout: 5)
            let all = try b.evaluate(events) as? [String] ?? []
            #expect(Array(all.suffix(expected.count)) == expected, "after \(key): \(all)")
        }
        _ = try b.evaluate("\(listbox).focus()")
        // Sun, Moon, Star (selected), Heart, Leaf, Custom.
        try press("ArrowLeft", "selected 1 Moon")
        try press("ArrowUp", "selected 0 Sun")
        try press("ArrowRight", "selected 1 Moon")
        try press("ArrowDown", "selected 2 Star")
        try press("Home", "selected 0 Sun")
        // The selected item goes; the one that takes its place is selected.
        try press("Delete", "deleted 0 Sun", "selected 0 Moon")
        try press("Backspace", "deleted 0 Moon", "selected 0 Star")
        try press("End", "selected 3 Custom")
        // Delete on Custom does nothing: the next key's selection is the only event after it.
        try press("Delete")
        try press("ArrowLeft", "selected 2 Leaf")
        #expect(
            try b.evaluate(events) as? [String] == [
                "selected 1 Moon", "selected 0 Sun", "selected 1 Moon", "selected 2 Star", "selected 0 Sun",
                "deleted 0 Sun", "selected 0 Moon", "deleted 0 Moon", "selected 0 Star", "selected 3 Custom",
                "selected 2 Leaf",
            ])
        try b.waitFor("\(listbox).getAttribute('aria-valuetext') === 'Leaf'", timeout: 5)
        let options = try b.evaluate("[...\(listbox).querySelectorAll('[role=option]')].map(o => o.textContent)")
        #expect(options as? [String] == ["Star", "Heart", "Leaf", "Custom"])
        #expect(try b.evaluate("document.activeElement?.dataset.widget") as? String == "carousel")
    }
}
