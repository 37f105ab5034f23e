import Foundation
import LoopbackTools
import Testing

/// Pixels where they matter, read back from the page's canvas with `getImageData` (device pixels;
/// 2 per scene point at phone size).
///
/// The tick picker (`?scene=picker`: the picker at (0, 60, 390, 70), centre x 195, middle y 95)
/// draws its centre tick 18 pt tall and 2 pt wide in the theme's text colour (light: #1C1C1E,
/// near black; dark: #F2F2F7), over the surface (light #FFFFFF, dark #1C1C1E); its neighbours 10 pt
/// away are 14 pt tall, 1 pt wide, light grey (the secondary text colour at 60 %): WIDGETS.md §2,
/// `TickPicker.render`, `Theme`.
@Suite(.serialized) struct BrowserPixelTests {
    static let centre = (x: 195.0, y: 95.0)

    /// JS: the canvas's colour at scene point (`x`, `y`) as "#RRGGBB".
    static func pixel(_ x: Double, _ y: Double) -> String { BrowserPresenceTests.pixel(x, y) }

    func open(_ server: ServerProcess, theme: String) throws -> Chromium {
        let b = try Chromium.openObserved(
            server.httpURL + "?scene=picker&room=pixels-\(theme)&theme=\(theme)",
            ready: "document.querySelector('[data-widget=picker]')?.getAttribute('aria-valuenow') !== null")
        #expect(try b.evaluate("document.getElementById('canvas').width") as? Int == 780, "2 device pixels a point")
        return b
    }

    /// Colours at scene points, read in one go.
    func colours(_ b: Chromium, _ points: [(Double, Double)]) throws -> [String] {
        try b.evaluate("[\(points.map { Self.pixel($0.0, $0.1) }.joined(separator: ", "))]") as? [String] ?? []
    }

    /// The centre tick: its middle and both ends (0.5 pt inside its 18 pt), then 1 pt beyond each
    /// end, then 1.5 pt either side of its middle (beyond its 2 pt width).
    func centreTick(_ b: Chromium) throws -> [String] {
        let (x, y) = Self.centre
        return try colours(
            b, [(x, y), (x, y - 8.5), (x, y + 8.5), (x, y - 10), (x, y + 10), (x - 1.5, y), (x + 1.5, y)])
    }

    @Test("light: the picker's centre tick is drawn black and tall (18 pt), its neighbours grey and shorter")
    func centreTickLight() throws {
        let server = try ServerProcess()
        let b = try open(server, theme: "light")
        defer { b.close() }
        let black = "#1C1C1E", white = "#FFFFFF"
        #expect(try centreTick(b) == [black, black, black, white, white, white, white])
        // The tick 10 pt to the right: 14 pt tall (to 7 pt from the middle), light grey: #6C6C70 at
        // 60 % over white is (167, 167, 169).
        let (x, y) = Self.centre
        let side = try colours(b, [(x + 10, y), (x + 10, y - 6.5), (x + 10, y - 8.5)])
        let grey = BrowserPresenceTests.channels(side.first ?? "")
        #expect(zip(grey, [167, 167, 169]).allSatisfy { abs($0 - $1) <= 2 }, "the neighbour's colour: \(side)")
        #expect(side.count == 3 && side[1] == side[0] && side[2] == white, "the neighbour is 14 pt tall: \(side)")

        // After a step the new centre tick is drawn the same, once the 0.15 s pulse has faded.
        _ = try b.evaluate("document.querySelector('[data-widget=picker]').focus()")
        try b.key("ArrowRight")
        try b.waitFor("observed.events.some(e => e.widget === 'picker' && e.type === 'value' && e.final)", timeout: 5)
        try b.waitFor("performance.now() - observed.lastFrameAt > 300", timeout: 5)
        #expect(try centreTick(b) == [black, black, black, white, white, white, white])
        try b.saveScreenshot("picker-centre-tick-light")
    }

    @Test("light: the ruler's ticks reach the seed's heights, and the centre pointer is the accent colour")
    func rulerTicks() throws {
        let server = try ServerProcess()
        let b = try Chromium.openObserved(
            server.httpURL + "?room=pixels-ruler&theme=light", ready: "\(BrowserRulerTests.value) === 72.5")
        defer { b.close() }
        // The demo's ruler: (0, 150, 390, 128); 72.5 kg under x 195, so the major tick of block 72
        // is at x 145 (5 ticks left), a minor tick at x 155. WIDGETS.md §1: major ticks 2 pt wide
        // down to 0.46875·128 = 60 pt (y 210), minor ticks 1 pt wide down to 0.3125·128 = 40 pt
        // (y 190), in the tick colour (#1C1C1E); the pointer (`WeightRuler.render`) 3 pt wide,
        // down to 0.6·128 = 76.8 pt (y 226.8), in the accent (#FF6B00); all over white.
        let tick = "#1C1C1E", white = "#FFFFFF", accent = "#FF6B00"
        let got = try colours(
            b, [(145, 208), (145, 212), (155, 188), (155, 192), (150, 160), (195, 225), (195, 228), (197.5, 200)])
        #expect(got == [tick, white, tick, white, white, accent, white, white], "\(got)")
        try b.saveScreenshot("ruler-ticks-light")
    }

    @Test("dark: the picker's centre tick is drawn in the dark theme's text colour, as tall")
    func centreTickDark() throws {
        let server = try ServerProcess()
        let b = try open(server, theme: "dark")
        defer { b.close() }
        let light = "#F2F2F7", surface = "#1C1C1E"
        #expect(try centreTick(b) == [light, light, light, surface, surface, surface, surface])
        try b.saveScreenshot("picker-centre-tick-dark")
    }
}
