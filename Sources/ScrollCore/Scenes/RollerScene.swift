/// The digit roller on its own (`roller`); driven by `changeTo` actions.
public enum RollerScene {
    public static let name = "roller"
    public static let size = Size(width: 390, height: 160)
    public static let rollerFrame = Rect(x: 0, y: 40, width: 390, height: 80)

    public static func make() -> Scene {
        Scene(name: name, size: size, widgets: [DigitRoller(id: "roller", frame: rollerFrame)])
    }
}
