import Foundation
import Testing

@testable import ScrollCore

/// SVG frames from the same display-list bytes the page paints.
@Suite struct ReplaySVGTests {
    /// Compares with Traces/<name>; UPDATE_SNAPSHOTS=1 (re)writes it instead of failing.
    func expectSnapshot(_ svg: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = TraceFiles.url(name)
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
            try svg.write(to: url, atomically: true, encoding: .utf8)
        }
        guard let stored = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "no snapshot \(name); run the tests with UPDATE_SNAPSHOTS=1 to write it", sourceLocation: sourceLocation
            )
            return
        }
        #expect(
            svg == stored, "\(name) differs; if the change is intended, UPDATE_SNAPSHOTS=1 rewrites it",
            sourceLocation: sourceLocation)
    }

    @Test("the initial scene (light) matches its snapshot and shows 72 and 73 around 72.5 kg")
    func initialFrame() throws {
        let svg = try SVGRenderer.render(DemoScene.make(), theme: .light)
        try expectSnapshot(svg, "initial-light.svg")
        for label in [">72<", ">73<", ">71<", ">74<", ">kg<", ">.<"] { #expect(svg.contains(label), "\(label)") }
        // 72.5 sits under the centre (x = 195): tick j = 0 of block 73, whose major tick is 50 pt
        // right. The ticks are drawn for the anchor 7200 (offset 7250 − 50) and slid by −50.
        #expect(svg.contains(#"<g transform="translate(-50,0)">"#))
        #expect(
            svg.contains(
                ##"<text x="295" y="214" font-family="DejaVu Sans" font-size="17" text-anchor="middle" dominant-baseline="text-before-edge" fill="#1c1c1e">73</text>"##
            ))
        #expect(svg.contains(#"<text x="195" y="214""#) && svg.contains(">72</text>"))
        #expect(
            svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="390" height="844" viewBox="0 0 390 844">"#))
    }

    @Test("after the wrap trace (dark): 999 next to 9 under the pointer, matching its snapshot")
    func wrappedFrame() throws {
        let result = Replayer().run(try TraceFiles.entries("wrap.jsonl"))
        let svg = try SVGRenderer.render(result.scene, theme: .dark)
        try expectSnapshot(svg, "wrap-dark.svg")
        for label in [">998<", ">999<", ">9<", ">kg<"] { #expect(svg.contains(label), "\(label)") }
        #expect(result.scene.semantics.first { $0.id == "readout" }?.valueText == "999.0 kg")
        // 999.0: the major tick of 999 is centred, drawn at 195 − the layer's offset.
        let ruler = try #require(result.scene.widget("ruler") as? WeightRuler)
        let dx = ruler.layerOffset.x
        // (A layer at offset zero draws no translate group.)
        #expect(dx == 0 || svg.contains(#"<g transform="translate(\#(SVGRenderer.num(dx)),0)">"#))
        #expect(svg.contains(#"<text x="\#(SVGRenderer.num(195 - dx))" y="214""#))
        #expect(svg.contains(##"fill="#000000""##))  // dark background
    }

    @Test("every op: nested groups for transforms and clips, colours with alpha, shapes, text")
    func everyOp() {
        let ops: [DecodedOp] = [
            .save, .translate(10, 20), .scale(2, 0.5), .clip(Rect(x: 0, y: 0, width: 100, height: 50)),
            .setFill(Color(255, 0, 0, 128)), .fillRect(Rect(x: 1, y: 2, width: 3, height: 4)),
            .setAlpha(0.5), .setStroke(Color(0, 0, 255), width: 1.5), .line(0, 0, 10, 10),
            .fillRoundRect(Rect(x: 0, y: 0, width: 20, height: 10), radius: 8),
            .fillCircle(Point(x: 5, y: 5), radius: 2.3456),
            .fillPolygon([Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 2, y: 3)]),
            .restore,
            .text("a<b", x: 50, y: 10, size: 12, align: .center, baseline: .top, weight: .bold),
            .text("x", x: 99.999, y: 25, size: 12, align: .right, baseline: .middle, weight: .regular),
            .text("y", x: -0.001, y: 40, size: 12, align: .left, baseline: .alphabetic, weight: .regular),
            .fillRect(Rect(x: 10, y: 10, width: -4, height: -2)),
            .restore,  // unmatched: ignored, as on a canvas
            .translate(1, 1),  // left open: closed at the end of the layer
        ]
        let svg = SVGRenderer.render(ops: [ops], size: Size(width: 100, height: 50))
        #expect(
            svg == """
                <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
                <g id="layer-0">
                <g transform="translate(10,20)">
                <g transform="scale(2,0.5)">
                <clipPath id="clip1"><rect x="0" y="0" width="100" height="50"/></clipPath>
                <g clip-path="url(#clip1)">
                <rect x="1" y="2" width="3" height="4" fill="#ff0000" fill-opacity="0.502"/>
                <line x1="0" y1="0" x2="10" y2="10" stroke="#0000ff" stroke-opacity="0.5" stroke-width="1.5"/>
                <rect x="0" y="0" width="20" height="10" rx="5" ry="5" fill="#ff0000" fill-opacity="0.251"/>
                <circle cx="5" cy="5" r="2.35" fill="#ff0000" fill-opacity="0.251"/>
                <polygon points="0,0 4,0 2,3" fill="#ff0000" fill-opacity="0.251"/>
                </g>
                </g>
                </g>
                <text x="50" y="10" font-family="DejaVu Sans" font-size="12" font-weight="bold" text-anchor="middle" dominant-baseline="text-before-edge" fill="#000000">a&lt;b</text>
                <text x="100" y="25" font-family="DejaVu Sans" font-size="12" text-anchor="end" dominant-baseline="central" fill="#000000">x</text>
                <text x="0" y="40" font-family="DejaVu Sans" font-size="12" text-anchor="start" dominant-baseline="alphabetic" fill="#000000">y</text>
                <rect x="6" y="8" width="4" height="2" fill="#000000"/>
                <g transform="translate(1,1)">
                </g>
                </g>
                </svg>

                """)
    }

    @Test("layers decode from the encoded bytes; every layer starts from the default state")
    func fromBytes() throws {
        var a = DisplayList(), b = DisplayList()
        a.setFill(Color(hex: 0x112233)); a.fillRect(Rect(x: 0, y: 0, width: 1, height: 1))
        b.fillCircle(center: Point(x: 1, y: 1), radius: 1)
        let svg = try SVGRenderer.render(
            [Layer(id: 4, list: a), Layer(id: 9, list: b)], size: Size(width: 2, height: 2))
        #expect(svg.contains("<g id=\"layer-4\">\n<rect x=\"0\" y=\"0\" width=\"1\" height=\"1\" fill=\"#112233\"/>"))
        #expect(svg.contains("<g id=\"layer-9\">\n<circle cx=\"1\" cy=\"1\" r=\"1\" fill=\"#000000\"/>"))
    }

    @Test("text is escaped for XML; control characters become U+FFFD")
    func escaping() {
        let svg = SVGRenderer.render(
            ops: [[.text("<&\"\u{7}>", x: 0, y: 0, size: 1, align: .left, baseline: .top, weight: .regular)]],
            size: Size(width: 1, height: 1))
        #expect(svg.contains(">&lt;&amp;&quot;\u{FFFD}&gt;</text>"))
    }

    @Test("numbers: at most 2 decimals, trailing zeros trimmed, no -0")
    func numbers() {
        #expect(SVGRenderer.num(1.006) == "1.01" && SVGRenderer.num(1.004) == "1")
        #expect(SVGRenderer.num(12.5) == "12.5")
        #expect(SVGRenderer.num(-0.001) == "0")
        #expect(SVGRenderer.num(-3.14159) == "-3.14")
        #expect(SVGRenderer.num(0.1 + 0.2) == "0.3")
        #expect(SVGRenderer.num(2, decimals: 3) == "2")
    }
}
