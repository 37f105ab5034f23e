import ScrollCore

extension FrameWorkload {
    /// The widgets `allMoving` must keep moving: the benchmark refuses to measure it otherwise.
    public static let allMovingWidgets = ["ruler", "picker", "carousel", "roller"]

    /// Runs `frames` frames and counts, per widget, the frames that changed its layer (ops or
    /// offset), with the median delta frame's size.
    public func layerChanges(frames: Int) -> (changed: [(id: String, frames: Int)], medianDelta: Int) {
        let widgets = scene.widgets.map(\.id)
        var changed = Array(repeating: 0, count: widgets.count)
        var previous = render()
        var deltaBytes: [Int] = []
        for _ in 0..<frames {
            step()
            let layers = render()
            for (i, layer) in layers.dropFirst().enumerated() where layer != previous[i + 1] { changed[i] += 1 }
            deltaBytes.append(encode(layers).delta.count)
            previous = layers
        }
        return (Array(zip(widgets, changed)).map { (id: $0, frames: $1) }, deltaBytes.sorted()[frames / 2])
    }
}
