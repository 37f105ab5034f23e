/// Conversions between trace lines and wire messages (Protocol/ClientMessage.swift).
extension TraceEntry {
    /// What the recorder writes for one accepted wire message from `client`.
    ///
    /// `t` is an offset in ms added to the client's own timestamps: the recorder shifts
    /// each client's clock by a constant so that its first message lands at the room time
    /// it arrived (see `TraceRecorder`). `at` is the message's arrival (ms on the room's
    /// timeline), shared by all its lines. A move with coalesced samples gives one line per
    /// sample, each with its own time; hello and ping give none.
    public static func entries(
        for message: ClientMessage, client: String, t: Double,
        at: Double? = nil
    ) -> [TraceEntry] {
        switch message {
        case .pointer(let p):
            return p.samples.map { s in
                .pointer(p.phase, t: s.t + t, at: at, x: s.x, y: s.y, pointer: p.id, client: client)
            }
        case .wheel(let w):
            return [
                .wheel(
                    t: w.t + t, at: at, x: w.x, y: w.y, dx: w.dx, dy: w.dy, deltaMode: w.deltaMode,
                    client: client)
            ]
        case let .key(key, widget, time):
            return [.key(key, t: time + t, at: at, widget: widget, client: client)]
        case .action(let a):
            return [.action(a.action, t: a.t + t, at: at, widget: a.widget, args: a.args, client: client)]
        case .hello, .ping, .hover, .preferences:
            return []
        }
    }

    /// What the scene is given for this line: what the server gives it for the message, or
    /// for a `leave` line what it gives it when that client disconnects.
    public var sceneInputs: [SceneInput] {
        guard let message = clientMessage else { return [.leave(client: client)] }
        return InputMapping.sceneInputs(message, client: client)
    }

    /// The wire message this line stands for, with `t` as the client timestamp (`at` is
    /// when it is applied, not part of the message); nil for `leave`, which is no message
    /// (live, the client's connection closes). Live replay sends its `encoded()` text.
    public var clientMessage: ClientMessage? {
        switch type {
        case .down, .move, .up, .cancel:
            return .pointer(ClientMessage.Pointer(phase: type.pointerPhase!, id: pointer, x: x, y: y, t: t))
        case .wheel:
            return .wheel(ClientMessage.Wheel(x: x, y: y, dx: dx, dy: dy, deltaMode: deltaMode, t: t))
        case .key:
            return .key(key: key, widget: widget, t: t)
        case .action:
            return .action(ClientMessage.Action(widget: widget, action: action, args: args, t: t))
        case .leave:
            return nil
        }
    }
}
