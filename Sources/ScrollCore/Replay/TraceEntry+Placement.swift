/// Moving a trace written for one scene into another that shows the same widgets elsewhere
/// (a widget's own scene into `demo`, where every widget has its slot): `widget-load soak`
/// plays every golden trace in demo rooms this way.
extension TraceEntry {
    /// The lines as they would be sent to `target`: pointer and wheel lines shifted by the
    /// one offset between the two scenes' frames of the same widgets; key and action lines
    /// that named no widget name `source`'s default focus (in `target` another widget may be
    /// the default). Nil when a widget of `source` is missing from `target`, has another size
    /// there, or the widgets are not all moved by the same offset.
    public static func placed(_ entries: [TraceEntry], from source: Scene, into target: Scene) -> [TraceEntry]? {
        var offset: (x: Double, y: Double)?
        for widget in source.widgets {
            guard let there = target.widget(widget.id), there.frame.width == widget.frame.width,
                there.frame.height == widget.frame.height
            else { return nil }
            let shift = (x: there.frame.x - widget.frame.x, y: there.frame.y - widget.frame.y)
            if let offset, offset != shift { return nil }
            offset = shift
        }
        guard let offset else { return entries }
        let focus = source.defaultFocus?.id
        return entries.map { entry in
            var entry = entry
            switch entry.type {
            case .down, .move, .up, .cancel, .wheel:
                entry.x += offset.x
                entry.y += offset.y
            case .key, .action:
                entry.widget = entry.widget ?? focus
            case .leave:
                break
            }
            return entry
        }
    }
}
