/// The weight ruler on its own: the readout and the ruler at the same places as in the
/// demo scene (a trace recorded in one replays in the other), on a canvas cut to fit.
public enum RulerScene {
    public static let name = "ruler"
    public static let size = Size(width: 390, height: 300)

    public static func make(rulerValue: Double = 72.5) -> Scene {
        Scene(name: name, size: size, widgets: widgets(rulerValue: rulerValue), bindings: bindings)
    }

    /// The readout (a digit roller) and the ruler (shared with the demo scene).
    static func widgets(rulerValue: Double) -> [Widget] {
        let readout = DigitRoller(
            id: "readout", frame: DemoScene.readoutFrame, format: WeightRuler.format, label: "Weight", readout: true)
        return [readout, WeightRuler(id: "ruler", frame: DemoScene.rulerFrame, value: rulerValue)]
    }

    /// The readout shows the ruler's value.
    static let bindings = [ReadoutBinding(source: "ruler", readout: "readout")]
}
