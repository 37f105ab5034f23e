/// The tick picker on its own, its count just below it (`picker`), and the same without
/// snapping (`picker-free`: the seed's free stop, where momentum ends).
public enum PickerScene {
    public static let name = "picker"
    public static let freeName = "picker-free"
    public static let size = Size(width: 390, height: 200)
    public static let pickerFrame = Rect(x: 0, y: 60, width: 390, height: 70)

    public static func make(snaps: Bool = true) -> Scene {
        Scene(
            name: snaps ? name : freeName, size: size, widgets: widgets(pickerFrame: pickerFrame, snaps: snaps),
            bindings: bindings)
    }

    /// The picker (0…100, starting at 0) and its count (a digit roller) in the 36 pt below it (shared with
    /// the demo scene).
    static func widgets(pickerFrame frame: Rect, snaps: Bool = true) -> [Widget] {
        let countFrame = Rect(x: frame.x, y: frame.maxY, width: frame.width, height: 36)
        return [
            TickPicker(id: "picker", frame: frame, snaps: snaps),
            DigitRoller(id: "count", frame: countFrame, format: TickPicker.format, label: "Count", readout: true),
        ]
    }

    /// The count shows the picker's value.
    static let bindings = [ReadoutBinding(source: "picker", readout: "count")]
}
