import ScrollCore

extension FrameWorkload {
    /// The ruler dragged at 0.7 pt per frame (42 pt/s), back to its start every 400 frames:
    /// widget-bench's frame-cost figure before package-benchmark took it over, kept so the figures
    /// stay comparable.
    public static let rulerDragPeriod = 400

    public static func rulerDrag() -> FrameWorkload {
        let scene = DemoScene.make()
        pointer(scene, .down, 1, 300, 214, frame: 0)
        return FrameWorkload(name: "ruler-drag", scene: scene) { scene, k in
            pointer(scene, .move, 1, 300 - Double(k % rulerDragPeriod) * 0.7, 214, frame: k)
        }
    }
}
