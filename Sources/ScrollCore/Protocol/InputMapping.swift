/// Wire message → scene input, shared by the live server and the replayer so that a
/// replay feeds the scene exactly what the server did (docs/PROTOCOL.md, "Client → server").
public enum InputMapping {
    /// Wheel deltas in lines (deltaMode 1) and pages (deltaMode 2) become points at these sizes.
    public static let wheelLine = 16.0
    public static let wheelPage = 390.0

    /// Pointer samples keep the client's timestamp (ms → s) for the velocity tracker;
    /// pointers are told apart per client.
    public static func sceneInputs(_ message: ClientMessage, client: String) -> [SceneInput] {
        switch message {
        case .pointer(let p):
            let key = PointerKey(client: client, pointer: p.id)
            return p.samples.map { s in
                .pointer(PointerInput(phase: p.phase, key: key, position: Point(x: s.x, y: s.y), clientTime: s.t / 1000))
            }
        case .wheel(let w):
            let unit = w.deltaMode == 1 ? wheelLine : w.deltaMode == 2 ? wheelPage : 1
            return [.wheel(WheelInput(position: Point(x: w.x, y: w.y), dx: w.dx * unit, dy: w.dy * unit))]
        case .key(let key, let widget, _):
            return [.key(key, widget: widget)]
        case .hello, .ping:
            return []
        }
    }
}
