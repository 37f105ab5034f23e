import Foundation
import Testing

@testable import ScrollCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `MotionPlot`: the `--plot` picture. Checked as XML: one reading path and one velocity path per
/// widget that moved, one marker per event at its time; and its axes' round steps.
@Suite struct MotionPlotTests {
    /// Every element's name and attributes, in document order.
    final class Elements: NSObject, XMLParserDelegate {
        var all: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) { all.append((name, attributes)) }

        static func of(_ svg: String) throws -> Elements {
            let elements = Elements()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = elements
            #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
            return elements
        }

        func classed(_ name: String) -> [[String: String]] {
            all.filter { ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(name)) }.map(
                \.attributes)
        }
    }

    @Test("the fling: paths for the readout and the ruler, and its 59 events marked on the ruler's at their times")
    func fling() throws {
        let motion = MotionRecording()
        let result = Replayer(onStep: motion.record).run(try TraceFiles.entries("fling.jsonl"))
        let svg = MotionPlot.render(motion.series, events: result.events, duration: result.time, title: "fling <&>")
        let elements = try Elements.of(svg)
        #expect(elements.all.first?.name == "svg")
        #expect(elements.classed("position").map { $0["data-widget"] } == ["readout", "ruler"])
        #expect(elements.classed("velocity").map { $0["data-widget"] } == ["readout", "ruler"])
        let markers = elements.classed("event")
        #expect(markers.count == 59)
        #expect(markers.compactMap { $0["data-t"].flatMap(Double.init) } == result.events.map(\.time))
        #expect(Set(markers.compactMap { $0["data-widget"] }) == ["ruler"])
        #expect(markers.last?["data-type"] == "value")
        #expect(svg.contains(">fling &lt;&amp;&gt;</text>"))
    }

    @Test("a widget with events and no motion gets a strip of its events; one that did not move, nothing")
    func eventsWithoutMotion() throws {
        let still = MotionRecording.Series(
            widget: "picker", quantity: "offset", unit: "pt", points: [.init(time: 0, position: 0, velocity: 0)])
        let svg = MotionPlot.render(
            [still], events: [SceneEvent(time: 0.5, widget: "roller", kind: .announcement("Rolled"))], duration: 1,
            title: "t")
        let elements = try Elements.of(svg)
        #expect(elements.classed("panel").map { $0["data-widget"] } == ["roller"])
        #expect(elements.classed("position").isEmpty && elements.classed("event").count == 1)
    }

    @Test("axis steps are 1, 2 or 5 × 10ⁿ, about as many as asked")
    func ticks() {
        #expect(MotionPlot.ticks(0, 3.65, about: 8) == [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5])
        #expect(MotionPlot.ticks(7206.8, 8013.2, about: 5) == [7400, 7600, 7800, 8000])
        #expect(MotionPlot.ticks(-1000, 1200, about: 5) == [-1000, -500, 0, 500, 1000])
        #expect(MotionPlot.ticks(1, 1, about: 5) == [1])
    }
}
