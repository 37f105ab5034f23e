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
                    "no widget \"\(id.excerpt(64))\" in scene \"\(name)\" (widgets: \(widgets.map(\.id).joined(separator: ", ")))"
                )
            }
            try w.restore(saved)
        }
        settleReadouts()
        forgetDrawings()
    }
}
