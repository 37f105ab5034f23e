/// What a restart keeps of the carousel (docs/STATE.md): its items, the settled selection and
/// how many items were ever made, so uids and "Item N" names carry on where they were.
extension Carousel {
    /// `{"items": [{"id", "name", "icon"}, …], "selected": index, "made": n}`. Items added or
    /// deleted count at once; the selection is the settled one (it follows its item).
    public var snapshot: JSONValue? {
        .object([
            (
                "items",
                .array(
                    items.map { item in
                        .object([
                            ("id", .number(Double(item.uid))), ("name", .string(item.name)),
                            ("icon", .string(item.icon.rawValue)),
                        ])
                    })
            ),
            ("selected", .number(Double(selection))), ("made", .number(Double(madeCount))),
        ])
    }

    /// Refuses what the carousel could never hold: no items or over `maxItems`, a name an add
    /// would refuse, ids repeated or not below `made`, "Custom" anywhere but last.
    public func restore(_ snapshot: JSONValue) throws(SnapshotError) {
        let saved = try SnapshotFields(snapshot, of: id, fields: ["items", "selected", "made"])
        let list = try saved.required("items", FieldRule<[JSONValue], [JSONValue]>.list(count: 1...Self.maxItems))
        let made = try saved.required("made", .integer(in: 0...Int(Int32.max)))
        var restored: [CarouselItem] = []
        for (i, json) in list.enumerated() {
            let item = try SnapshotFields(json, of: "\(id): items[\(i)]", fields: ["id", "name", "icon"])
            let uid = try item.required("id", .integer(in: 0...max(made - 1, 0)))
            let name = try item.required("name", Self.itemName)
            let icon = try item.required("icon", .oneOf(CarouselIcon.allCases.map { ($0.rawValue, $0) }))
            guard uid < made, !restored.contains(where: { $0.uid == uid }) else {
                throw SnapshotError("\(id): items[\(i)].id \(uid) is repeated or not below made (\(made))")
            }
            let last = i == list.count - 1
            guard last == (icon == .custom), !last || name == Self.customName else {
                throw SnapshotError("\(id): \"\(Self.customName)\" (icon custom) must be the last item, and only it")
            }
            restored.append(CarouselItem(uid: uid, name: name, icon: icon, slot: i))
        }
        let selection = try saved.required("selected", .integer(in: 0...list.count - 1))
        reset(items: restored, selection: selection, made: made)
    }
}

extension FieldRule where Raw == [JSONValue], Value == [JSONValue] {
    static func list(count: ClosedRange<Int>) -> Self {
        Self("a list of \(count.lowerBound)–\(count.upperBound) items") { count.contains($0.count) ? $0 : nil }
    }
}
