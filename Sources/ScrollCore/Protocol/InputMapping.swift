/// Wire message → scene input, shared by the live server and the replayer so that a
/// replay feeds the scene exactly what the server did (docs/PROTOCOL.md, "Client → server").
public enum InputMapping {
    /// Pointer samples keep the client's timestamp (ms → s) for the velocity tracker;
    /// pointers are told apart per client.
    public static func sceneInputs(_ message: ClientMessage, client: String) -> [SceneInput] {
        switch message {
        case .pointer(let p):
            let key = PointerKey(client: client, pointer: p.id)
            return p.samples.map { s in
                .pointer(
                    PointerInput(phase: p.phase, key: key, position: Point(x: s.x, y: s.y), clientTime: s.t / 1000))
            }
        case .wheel(let w):
            // The widget under the wheel knows how long its page is.
            let unit = WheelUnit(rawValue: w.deltaMode) ?? .points
            return [.wheel(WheelInput(position: Point(x: w.x, y: w.y), dx: w.dx, dy: w.dy, unit: unit))]
        case .key(let key, let widget, _):
            return [.key(key, widget: widget)]
        case .action(let a):
            return [.action(ActionInput(widget: a.widget, name: a.action, args: a.args))]
        case .hello, .ping, .hover, .preferences:
            return []
        }
    }
}
