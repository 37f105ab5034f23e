import Foundation
import LoopbackTools
import Testing

/// A core of the browser suite in Firefox ESR (Debian's `firefox-esr`), driven over WebDriver
/// BiDi: the same test bodies as the Chromium suites, each given `.firefox`, in one Firefox for the
/// whole suite (`.sharedFirefox`), each test in a fresh tab and container. What the engines do
/// differently, and how each test allows for it, is in README ("Tests", "Firefox").
@Suite(.serialized, .sharedFirefox) struct BrowserFirefoxTests {
    @Test("ruler: a slow touch drag left by 100 pt raises the value by 1.0; right by 250 pt lowers it by 2.5")
    func rulerDrag() throws { try BrowserRulerGestureTests().touchDrag(.firefox) }

    @Test(
        "ruler: a fling left at about 1562.5 pt/s glides on and rests on the tick the physics names",
        arguments: Gesture.Pointer.allCases)
    func rulerFling(_ pointer: Gesture.Pointer) throws { try BrowserRulerGestureTests().fling(pointer, .firefox) }

    @Test("picker: ?haptics=off, the switches from the keyboard, End and Home count every tick; nothing vibrates")
    func pickerKeys() throws { try BrowserPickerTests().keyboard(.firefox) }

    @Test("carousel: tap Moon centres it; End then a tap on Custom adds Item 7; a swipe up deletes it")
    func carouselTaps() throws { try BrowserCarouselTests().tapAddDelete(.firefox) }

    @Test("roller: +1, +9, +99 clicked while the first still rolls settle on 109, reported once; then −1 → 108")
    func rollerButtons() throws { try BrowserRollerTests().quickClicks(.firefox) }

    @Test("?latency=100&predict=1: a move of the held ruler painted before any answer; corrections ≤ 2 pt")
    func prediction() throws {
        let server = try ServerProcess()
        let (page, value) = try BrowserPredictionTests().predicted(server, .firefox)
        page.close()
        #expect(abs(value * 10 - (value * 10).rounded()) < 1e-9, "rests on a tick: \(value)")
    }

    @Test("<scroll-widget>: the form submits the ruler's value under its name; reset and disabled as documented")
    func embedForm() throws { try BrowserEmbedTests().formSubmitsTheValue(.firefox) }

    @Test("<scroll-widget>: a fling's moving values, sent ahead, fire as input events over the glide, then one change")
    func embedFling() throws { try BrowserEmbedTests().flingInputsPlayOverTheGlide(.firefox) }

    @Test(
        "one room, a Chromium page and a Firefox page: each sees the other, its drag and its hover dot",
        arguments: [(Engine.firefox, Engine.chromium), (.chromium, .firefox)])
    func mixedRoom(_ driver: Engine, _ watcher: Engine) throws {
        try BrowserPresenceTests().twoPages(driver, watcher)
    }
}
