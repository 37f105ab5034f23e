/// The weight ruler on its own: the readout and the ruler at the same places as in the
/// demo scene (a trace recorded in one replays in the other), on a canvas cut to fit.
public enum RulerScene {
    public static let name = "ruler"
    public static let size = Size(width: 390, height: 300)

    public static func make(rulerValue: Double = 72.5) -> Scene {
        Scene(name: name, size: size, widgets: widgets(rulerValue: rulerValue))
    }

    /// The readout (a digit roller following the ruler) and the ruler (shared with the demo scene).
    static func widgets(rulerValue: Double) -> [Widget] {
        let ruler = WeightRuler(id: "ruler", frame: DemoScene.rulerFrame, value: rulerValue)
        let readout = DigitRoller(
            id: "readout", frame: DemoScene.readoutFrame, decimals: 1, unit: "kg", label: "Weight"
        ) { ruler.tenths }
        return [readout, ruler]
    }
}
