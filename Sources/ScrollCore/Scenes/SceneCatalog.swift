/// The scenes a room can show, by name (`?scene=NAME`, `widget-replay --scene NAME`).
/// A room's scene is chosen once, when the room is created.
public struct SceneCatalog: Sendable {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        public var make: @Sendable () -> Scene
        public init(name: String, summary: String, make: @escaping @Sendable () -> Scene) {
            self.name = name; self.summary = summary; self.make = make
        }
    }

    /// What a room shows when the client names no scene.
    public static let defaultName = DemoScene.name

    /// The product's scenes: `demo` (every widget) and one per widget.
    public static let standard = SceneCatalog([
        Entry(name: DemoScene.name, summary: "every widget on one phone-sized canvas") { DemoScene.make() },
        Entry(name: RulerScene.name, summary: "the weight ruler and its readout") { RulerScene.make() },
        Entry(name: PickerScene.name, summary: "the tick picker (0…100) and its count") { PickerScene.make() },
        Entry(name: PickerScene.freeName, summary: "the tick picker without snapping: it stops where momentum ends") {
            PickerScene.make(snaps: false)
        },
        Entry(name: CarouselScene.name, summary: "the carousel and the selected item's name") { CarouselScene.make() },
        Entry(name: RollerScene.name, summary: "the digit roller and its buttons") { RollerScene.make() },
    ])

    public let entries: [Entry]

    public init(_ entries: [Entry]) {
        precondition(Set(entries.map(\.name)).count == entries.count, "scene names must be unique")
        self.entries = entries
    }

    public var names: [String] { entries.map(\.name) }

    /// A fresh scene named `name`, or nil when there is none.
    public func make(_ name: String) -> Scene? { entries.first { $0.name == name }?.make() }

    /// The refusal for an unknown name: names the one asked for and every one there is.
    public func unknown(_ name: String) -> String {
        "no scene \"\(name.excerpt(64))\" (scenes: \(names.joined(separator: ", ")))"
    }
}
