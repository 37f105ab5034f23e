/// A `semantics` message that says only what changed since the one before (docs/PROTOCOL.md,
/// `semantics`): `{"type":"semantics","changed":[{"id", field: value, …}]}`, per widget whose entry
/// changed its `id` and the fields whose values differ, a field that went as `null`. Widgets are
/// compared as `Semantics.json` gives them, in order.
public enum SemanticsPatch {
    /// What changed from `old` to `new`; nil when the widgets themselves differ (one added, removed
    /// or moved, or an entry without an id): only a full message says that.
    public static func changes(from old: [JSONValue], to new: [JSONValue]) -> [JSONValue]? {
        guard old.count == new.count else { return nil }
        var changed: [JSONValue] = []
        for (was, now) in zip(old, new) {
            guard case .object(let before) = was, case .object(let after) = now,
                let id = Self.id(before), id == Self.id(after)
            else { return nil }
            var fields: [(String, JSONValue)] = []
            for (name, value) in after where name != "id" && before.first(where: { $0.0 == name })?.1 != value {
                fields.append((name, value))
            }
            for (name, _) in before where !after.contains(where: { $0.0 == name }) { fields.append((name, .null)) }
            if !fields.isEmpty { changed.append(.object([("id", .string(id))] + fields)) }
        }
        return changed
    }

    /// The patch message from `old` to `new`, nil when there is none, nothing changed, or it would
    /// not be shorter than `full` (the full message for `new`).
    public static func message(from old: [JSONValue], to new: [JSONValue], full: String) -> String? {
        guard let changed = changes(from: old, to: new), !changed.isEmpty else { return nil }
        let patch = ServerMessage.semantics(changed: changed)
        return patch.utf8.count < full.utf8.count ? patch : nil
    }

    /// `widgets` after the patch `changed`: each named widget's fields replaced, a `null` one
    /// removed, one it lacked added; an entry naming no widget here is passed over.
    public static func apply(_ changed: [JSONValue], to widgets: [JSONValue]) -> [JSONValue] {
        var widgets = widgets
        for case .object(let patch) in changed {
            guard let id = Self.id(patch),
                let i = widgets.firstIndex(where: { if case .object(let w) = $0 { Self.id(w) == id } else { false } }),
                case .object(var fields) = widgets[i]
            else { continue }
            for (name, value) in patch where name != "id" {
                let at = fields.firstIndex { $0.0 == name }
                switch (at, value) {
                case (let at?, .null): fields.remove(at: at)
                case (let at?, _): fields[at].1 = value
                case (nil, .null): break
                case (nil, _): fields.append((name, value))
                }
            }
            widgets[i] = .object(fields)
        }
        return widgets
    }

    static func id(_ fields: [(String, JSONValue)]) -> String? {
        guard case .string(let id)? = fields.first(where: { $0.0 == "id" })?.1 else { return nil }
        return id
    }
}

/// What a client knows of its room's semantics: the last full widget list, with every patch
/// since applied. A patch before any full list is passed over (the server never sends one).
public struct SemanticsMirror: Sendable {
    /// Each widget's entry, as a full message would list it now; nil before any full message.
    public private(set) var widgets: [JSONValue]?

    public init() {}

    /// Takes one message: a `semantics` one (full or patch) changes what is known; returns whether
    /// it did.
    @discardableResult
    public mutating func take(_ message: JSONValue) -> Bool {
        guard case .object(let fields) = message, fields.first(where: { $0.0 == "type" })?.1 == "semantics"
        else { return false }
        if case .array(let list)? = fields.first(where: { $0.0 == "widgets" })?.1 {
            widgets = list
            return true
        }
        guard case .array(let changed)? = fields.first(where: { $0.0 == "changed" })?.1, let known = widgets
        else { return false }
        widgets = SemanticsPatch.apply(changed, to: known)
        return true
    }

    /// `take` for a message's text (not JSON: nothing changes).
    @discardableResult
    public mutating func take(text: String) -> Bool {
        guard let message = try? JSONParser.parse(text) else { return false }
        return take(message)
    }

    /// The full `semantics` message of what is known (nil before any full message), each widget's
    /// fields in name order: a field a patch brought back is last in `widgets`, so only this way do
    /// the same semantics read the same whether they came whole or patched.
    public var message: String? {
        widgets.map { list in
            ServerMessage.semantics(
                json: list.map { w in
                    guard case .object(let fields) = w else { return w }
                    return .object(fields.sorted { $0.0 < $1.0 })
                })
        }
    }

    /// A new connection or room: nothing is known until its next full message.
    public mutating func forget() { widgets = nil }
}
