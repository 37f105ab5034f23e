import Testing

@testable import ScrollCore

@Suite("Scenes by name")
struct SceneCatalogTests {
    let catalog = SceneCatalog.standard

    @Test func demoIsTheDefaultAndEveryWidgetSceneIsListed() {
        #expect(SceneCatalog.defaultName == "demo")
        #expect(catalog.names == ["demo", "ruler", "picker", "picker-free", "carousel", "roller"])
    }

    @Test func eachNameMakesAFreshSceneOfThatName() throws {
        for name in catalog.names {
            let a = try #require(catalog.make(name)), b = try #require(catalog.make(name))
            #expect(a.name == name)
            #expect(a !== b, "rooms must not share widget state")
        }
    }

    @Test("the demo scene is a 390 × 844 phone canvas (DESIGN.md, Scene and coordinates)")
    func demoIsPhoneSized() throws {
        let demo = try #require(catalog.make("demo"))
        #expect(demo.size == Size(width: 390, height: 844))
        #expect(
            demo.widgets.map(\.id) == [
                "readout", "ruler", "picker", "count", "carousel", "itemName", "roller", "rollerPlus1", "rollerPlus9",
                "rollerPlus99", "rollerMinus1", "rollerRandom",
            ])
    }

    @Test("demo widgets and reserved slots stack top to bottom inside the canvas without overlapping")
    func demoStacksWithoutOverlap() throws {
        let demo = try #require(catalog.make("demo"))
        let rects = demo.widgets.filter { !($0 is PushButton) }.map(\.frame)
        for (a, b) in zip(rects, rects.dropFirst()) {
            #expect(a.maxY <= b.minY, "\(a) must end above \(b)")
        }
        for r in rects {
            #expect(r.minX >= 0 && r.maxX <= demo.size.width && r.minY >= 0 && r.maxY <= demo.size.height)
        }
    }

    @Test("the ruler scene puts the ruler where the demo does, on a canvas cut to fit")
    func rulerSceneMatchesDemoCoordinates() throws {
        let demo = try #require(catalog.make("demo")), ruler = try #require(catalog.make("ruler"))
        #expect(ruler.widget("ruler")?.frame == demo.widget("ruler")?.frame)
        #expect(ruler.widget("readout")?.frame == demo.widget("readout")?.frame)
        #expect(ruler.size.width == 390)
        #expect(ruler.widgets.allSatisfy { $0.frame.maxY <= ruler.size.height })
        #expect(ruler.size.height < demo.size.height)
    }

    @Test("the picker scenes put the picker and its count together; only picker-free stops without snapping")
    func pickerScenes() throws {
        for name in ["picker", "picker-free"] {
            let scene = try #require(catalog.make(name))
            #expect(scene.name == name)
            #expect(scene.widgets.map(\.id) == ["picker", "count"])
            let picker = try #require(scene.widget("picker")), count = try #require(scene.widget("count"))
            #expect(picker.frame.maxY == count.frame.minY)
            #expect(scene.widgets.allSatisfy { $0.frame.maxY <= scene.size.height })
            #expect(scene.defaultFocus?.id == "picker")
        }
    }

    @Test func anUnknownNameIsRefusedNamingItAndTheKnownOnes() {
        #expect(catalog.make("odometer") == nil)
        #expect(
            catalog.unknown("odometer")
                == "no scene \"odometer\" (scenes: demo, ruler, picker, picker-free, carousel, roller)")
    }
}
