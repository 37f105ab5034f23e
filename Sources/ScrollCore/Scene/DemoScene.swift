/// The product's default scene: a phone-sized logical canvas (DESIGN.md, "Scene").
public enum DemoScene {
    public static let size = Size(width: 390, height: 844)
    public static let readoutFrame = Rect(x: 0, y: 48, width: 390, height: 80)
    public static let rulerFrame = Rect(x: 0, y: 150, width: 390, height: 128)

    public static func make(rulerValue: Double = 72.5) -> Scene {
        let ruler = WeightRuler(id: "ruler", frame: rulerFrame, value: rulerValue)
        let readout = ReadoutLabel(id: "readout", frame: readoutFrame, label: "Weight") { ruler.valueText }
        return Scene(size: size, widgets: [readout, ruler])
    }
}
