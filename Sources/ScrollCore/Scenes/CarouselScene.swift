/// The carousel on its own, the selected item's name below it (`carousel`).
public enum CarouselScene {
    public static let name = "carousel"
    public static let size = Size(width: 390, height: 260)
    public static let carouselFrame = Rect(x: 0, y: 40, width: 390, height: 150)

    public static func make() -> Scene {
        Scene(name: name, size: size, widgets: widgets(carouselFrame: carouselFrame), bindings: bindings)
    }

    /// The carousel and, in the 36 pt below it, the name of its selection (shared with demo).
    static func widgets(carouselFrame frame: Rect) -> [Widget] {
        let nameFrame = Rect(x: frame.x, y: frame.maxY, width: frame.width, height: 36)
        return [
            Carousel(id: "carousel", frame: frame),
            ReadoutLabel(id: "itemName", frame: nameFrame, label: "Selected item", fontSize: 22),
        ]
    }

    /// The label shows the selected item's name.
    static let bindings = [ReadoutBinding(source: "carousel", readout: "itemName")]
}
