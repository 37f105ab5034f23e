/// A room's snapshot: what has settled, kept across restarts (docs/STATE.md): the scene's name
/// and each widget's own small JSON snapshot by widget id. Each widget writes and checks its
/// own (`Widget.snapshot`, `Widget.restore`); this only carries them.
public struct SceneSnapshot: Sendable, Equatable {
    /// Bumped when a widget's snapshot changes meaning; another format is refused, never guessed at.
    public static let format = 1
    /// Far more than any scene's snapshot (a full carousel is ~3 KB); longer text is not read.
    public static let maxBytes = 64 * 1024

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
            throw SnapshotError("the snapshot is over \(Self.maxBytes) bytes")
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

/// Why a snapshot was refused: it names the widget and the field at fault.
public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One widget's snapshot read field by field with the wire's rules; a field it does not know
/// is refused, so a snapshot from another version is not half understood.
public struct SnapshotFields {
    let owner: String
    let fields: [String: JSONValue]

    /// `owner` names it in refusals (a widget id).
    public init(_ json: JSONValue, of owner: String, fields known: Set<String>) throws(SnapshotError) {
        guard case .object(let pairs) = json else { throw SnapshotError("\(owner): must be an object") }
        self.owner = owner
        fields = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw SnapshotError("\(owner): unknown field \"\(unknown.prefix(64))\"")
        }
    }

    public func required<Raw, Value>(_ name: String, _ rule: FieldRule<Raw, Value>) throws(SnapshotError) -> Value {
        guard let value = try optional(name, rule) else { throw SnapshotError("\(owner): \(name) is missing") }
        return value
    }

    /// nil when absent or null.
    public func optional<Raw, Value>(_ name: String, _ rule: FieldRule<Raw, Value>) throws(SnapshotError) -> Value? {
        guard let raw = fields[name], raw != .null else { return nil }
        guard let value = rule.validate(raw) else {
            throw SnapshotError("\(owner): \(name) must be \(rule.expectation)")
        }
        return value
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

extension Scene {
    /// Every widget's snapshot, in scene order (widgets that keep none are left out).
    public func snapshot() -> SceneSnapshot {
        SceneSnapshot(scene: name, widgets: widgets.compactMap { w in w.snapshot.map { (w.id, $0) } })
    }

    /// Puts `snapshot` back into this scene, which must be new (time 0, nothing held): each
    /// widget restores its own snapshot, then the readouts settle on their sources' values.
    /// A widget the snapshot does not name stays as it started. On a refusal the scene may be
    /// half restored: use a fresh one.
    public func restore(_ snapshot: SceneSnapshot) throws(SnapshotError) {
        guard snapshot.scene == name else {
            throw SnapshotError("a snapshot of scene \"\(snapshot.scene)\" cannot restore scene \"\(name)\"")
        }
        guard time == 0, holders.isEmpty else { throw SnapshotError("only a new scene can be restored") }
        for (id, saved) in snapshot.widgets {
            guard let w = widget(id) else {
                throw SnapshotError(
                    "no widget \"\(id.prefix(64))\" in scene \"\(name)\" (widgets: \(widgets.map(\.id).joined(separator: ", ")))"
                )
            }
            try w.restore(saved)
        }
        settleReadouts()
        forgetDrawings()
    }
}
