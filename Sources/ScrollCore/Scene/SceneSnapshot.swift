/// A room's snapshot: what has settled, kept across restarts (docs/STATE.md): the scene's name
/// and each widget's own small JSON snapshot by widget id. Each widget writes and checks its
/// own (`Widget.snapshot`, `Widget.restore`); this only carries them.
public struct SceneSnapshot: Sendable, Equatable {
    /// Bumped when a widget's snapshot changes meaning; another format is refused, never guessed at.
    public static let format = 1
    /// Longer text is not read. The largest snapshot a scene writes is under 18 KiB (the demo
    /// with 50 carousel items, each name ≤ 128 bytes, ≤ 285 as JSON; docs/STATE.md).
    public static let maxBytes = 32 * 1024

    public var scene: String
    public var widgets: [(id: String, snapshot: JSONValue)]

    public init(scene: String, widgets: [(id: String, snapshot: JSONValue)]) {
        self.scene = scene
        self.widgets = widgets
    }

    public static func == (a: SceneSnapshot, b: SceneSnapshot) -> Bool {
        a.scene == b.scene && a.widgets.count == b.widgets.count
            && zip(a.widgets, b.widgets).allSatisfy { $0.id == $1.id && $0.snapshot == $1.snapshot }
    }

    /// `{"format":1,"scene":NAME,"widgets":{ID:SNAPSHOT,…}}`, widgets in scene order.
    public var text: String {
        JSONValue.object([
            ("format", .number(Double(Self.format))), ("scene", .string(scene)),
            ("widgets", .object(widgets.map { ($0.id, $0.snapshot) })),
        ]).serialized
    }

    /// Reads `text`; refuses anything but an object of this format (the reason names the field).
    public init(parsing text: String) throws(SnapshotError) {
        guard text.utf8.count <= Self.maxBytes else {
            throw SnapshotError("the snapshot is \(text.utf8.count) bytes; the limit is \(Self.maxBytes)")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch {
            throw SnapshotError("the snapshot is not JSON")
        }
        let top = try SnapshotFields(json, of: "snapshot", fields: ["format", "scene", "widgets"])
        let format = try top.required("format", .integer(in: 0...Int(Int32.max)))
        guard format == Self.format else {
            throw SnapshotError("snapshot format \(format) is not \(Self.format) (written by another version?)")
        }
        scene = try top.required("scene", .identifier)
        guard case .object(let fields) = try top.required("widgets", FieldRule<JSONValue, JSONValue>.anyObject) else {
            throw SnapshotError("snapshot: widgets must be an object")
        }
        widgets = fields.map { (id: $0.0, snapshot: $0.1) }
    }
}

extension FieldRule where Raw == JSONValue, Value == JSONValue {
    static var anyObject: Self {
        Self("an object") {
            if case .object = $0 { return $0 }
            return nil
        }
    }
}
