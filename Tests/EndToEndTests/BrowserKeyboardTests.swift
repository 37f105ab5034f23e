import Foundation
import LoopbackTools
import Testing

/// The keyboard alone in the real page (README, "Keyboard"): Tab goes through the widgets in
/// reading order (top to bottom, then left to right), the focused widget's overlay element
/// shows an outline, and every widget does its job from the keys its semantics list — reached
/// with Tab, never with a script's `focus()`. Keys are real CDP key events.
///
/// Screenshots are saved as test artefacts in `.build/test-artifacts/screenshots/` (the focus outline on each
/// widget); they are not part of any assertion.
@Suite(.serialized) struct BrowserKeyboardTests {
    static let root = "document.documentElement.dataset"
    /// The demo scene's focusable widgets in reading order, then the page's own controls.
    static let widgets = [
        "ruler", "picker", "carousel", "rollerPlus1", "rollerPlus9", "rollerPlus99", "rollerMinus1", "rollerRandom",
    ]
    static let controls = ["haptics-switch", "sound-switch", "share-button", "theme-button", "hud-button"]
    static let focused = "(document.activeElement?.dataset.widget ?? document.activeElement?.id)"

    static func widget(_ id: String) -> String { "document.querySelector('[data-widget=\(id)]')" }

    /// The focused element's outline as "style width colour" ("none" when it has none).
    func outline(_ b: Chromium) throws -> String {
        try b.evaluate(
            """
            (() => { const s = getComputedStyle(document.activeElement);
              return s.outlineStyle === 'none' ? 'none' : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`; })()
            """) as? String ?? "nil"
    }

    /// Saves a screenshot as a test artefact (TestArtifacts).
    func screenshot(_ b: Chromium, _ name: String) throws {
        try b.saveScreenshot(name)
    }

    @Test("Tab goes through the widgets top to bottom, left to right, each with a visible outline, then the controls")
    func tabOrder() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?room=tabs",
            ready: "document.querySelectorAll('#semantics [tabindex]').length === 8")
        defer { b.close() }
        // The overlay elements are in reading order by their rects.
        let rects = try #require(
            b.evaluate(
                "[...document.querySelectorAll('#semantics > [tabindex]')].map(el => el.dataset.rect.split(',').map(Number))"
            ) as? [[Double]])
        #expect(rects == rects.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }, "\(rects)")

        var order: [String] = []
        var outlines: [String: String] = [:]
        for _ in 0..<(Self.widgets.count + Self.controls.count) {
            try b.press("Tab")
            let id = try #require(b.evaluate(Self.focused) as? String)
            order.append(id)
            if Self.widgets.contains(id) {
                outlines[id] = try outline(b)
                if id == "picker" || id == "carousel" || id == "rollerPlus99" { try screenshot(b, "focus-\(id)") }
            }
        }
        #expect(order == Self.widgets + Self.controls)
        for id in Self.widgets {
            let shown = outlines[id] ?? "nil"
            #expect(shown.hasPrefix("solid 3px"), "\(id): \(shown)")
        }
        // Unfocused, no outline.
        _ = try b.evaluate("document.activeElement.blur()")
        #expect(
            try b.evaluate("getComputedStyle(\(Self.widget("ruler"))).outlineStyle") as? String == "none")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }

    @Test("with the keyboard alone: the ruler, the picker, the carousel and the roller's buttons")
    func everyWidget() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?room=keys&theme=dark",
            ready: "document.querySelectorAll('#semantics [tabindex]').length === 8")
        defer { b.close() }
        func value(_ id: String) -> String { "Number(\(Self.widget(id)).getAttribute('aria-valuenow'))" }
        func text(_ id: String) -> String { "\(Self.widget(id)).getAttribute('aria-valuetext')" }
        func tab(to id: String) throws {
            try b.press("Tab")
            #expect(try b.evaluate(Self.focused) as? String == id)
        }

        // The ruler: PageUp +1.0 kg, ArrowLeft −0.1.
        try tab(to: "ruler")
        try b.press("PageUp")
        try b.waitFor("\(value("ruler")) === 73.5", timeout: 5)
        try b.press("ArrowLeft")
        try b.waitFor("\(value("ruler")) === 73.4", timeout: 5)

        // The picker: ArrowRight +1, End N.
        try tab(to: "picker")
        try b.press("ArrowRight")
        try b.waitFor("\(value("picker")) === 1", timeout: 5)
        try b.press("End")
        try b.waitFor("\(value("picker")) === 100", timeout: 5)
        try screenshot(b, "keyboard-picker-end-dark")

        // The carousel: ArrowRight selects the next item, Home the first.
        try tab(to: "carousel")
        let first = try #require(b.evaluate(text("carousel")) as? String)
        try b.press("ArrowRight")
        try b.waitFor("\(text("carousel")) !== \(BrowserPickerTests.js(first))", timeout: 5)
        try b.press("Home")
        try b.waitFor("\(text("carousel")) === 'Sun'", timeout: 5)
        #expect(
            try b.evaluate(
                "document.getElementById(\(Self.widget("carousel")).getAttribute('aria-activedescendant')).textContent")
                as? String == "Sun")

        // The roller's buttons: Enter on +1, Space on +9 (Tab past +1 to +9), Enter on −1.
        let roller = "document.querySelector('[data-widget=roller]').textContent"
        try tab(to: "rollerPlus1")
        try b.press("Enter")
        try b.waitFor("\(roller) === '1'", timeout: 10)
        try tab(to: "rollerPlus9")
        try b.press(" ")
        try b.waitFor("\(roller) === '10'", timeout: 10)
        try tab(to: "rollerPlus99")
        try tab(to: "rollerMinus1")
        try b.press("Enter")
        try b.waitFor("\(roller) === '9'", timeout: 10)
        #expect(try b.evaluate("window.scrollY") as? Int == 0, "Space did not scroll the page")
        #expect(b.consoleMessages.filter { $0.hasPrefix("exception") } == [])
    }
}
