/// The product's default scene: every widget on one phone-sized canvas (DESIGN.md,
/// "Scene and coordinates"), stacked top to bottom. Slots not yet filled are reserved
/// so that adding a widget moves nothing that traces and tests already point at.
public enum DemoScene {
    public static let name = "demo"
    public static let size = Size(width: 390, height: 844)

    /// Weight readout ("72.5 kg"): a digit roller following the ruler.
    public static let readoutFrame = Rect(x: 0, y: 48, width: 390, height: 80)
    public static let rulerFrame = Rect(x: 0, y: 150, width: 390, height: 128)
    /// Tick picker (y 300–370); its count below it (370–406).
    public static let pickerFrame = Rect(x: 0, y: 300, width: 390, height: 70)
    /// Carousel (y 430–580); the selected item's name below it (580–616).
    public static let carouselFrame = Rect(x: 0, y: 430, width: 390, height: 150)
    /// The standalone digit roller (y 640–720); its buttons below it (730–774).
    public static let rollerFrame = Rect(x: 0, y: 640, width: 390, height: 80)

    public static func make(rulerValue: Double = 72.5) -> Scene {
        let dice = Dice()
        return Scene(
            name: name, size: size,
            widgets: RulerScene.widgets(rulerValue: rulerValue) + PickerScene.widgets(pickerFrame: pickerFrame)
                + CarouselScene.widgets(carouselFrame: carouselFrame)
                + RollerScene.widgets(rollerFrame: rollerFrame, dice: dice),
            bindings: RulerScene.bindings + PickerScene.bindings + CarouselScene.bindings, dice: dice)
    }
}
