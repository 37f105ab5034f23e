import ScrollCore

extension FrameWorkload {
    /// The widgets `allMoving` must keep moving: the benchmark refuses to measure it otherwise.
    public static let allMovingWidgets = ["ruler", "picker", "carousel", "roller"]

    /// Runs `frames` frames and counts, per widget, the frames in which it moved: one of its
    /// layers (its own, id index + 1, or a part's, the same low byte) changed its ops or offset,
    /// or plays a track that has not ended (a roller's column rolls on one: nothing to send); with
    /// the median delta frame's size.
    public func layerChanges(frames: Int) -> (changed: [(id: String, frames: Int)], medianDelta: Int) {
        let widgets = scene.widgets.map(\.id)
        var changed = Array(repeating: 0, count: widgets.count)
        var previous = Dictionary(render().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var deltaBytes: [Int] = []
        for _ in 0..<frames {
            step()
            let layers = render()
            var moved = Set<Int>()
            for layer in layers where layer.id > 0 {
                let gliding = layer.track.map { $0.end > scene.time } ?? false
                if layer != previous[layer.id] || gliding { moved.insert(Int(layer.id & 0xFF) - 1) }
            }
            for i in moved where i < widgets.count { changed[i] += 1 }
            deltaBytes.append(encode(layers).delta.count)
            previous = Dictionary(layers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        }
        return (Array(zip(widgets, changed)).map { (id: $0, frames: $1) }, deltaBytes.sorted()[frames / 2])
    }
}
