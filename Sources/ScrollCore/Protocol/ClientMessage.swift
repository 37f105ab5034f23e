/// Messages from the page (docs/PROTOCOL.md, "Client → server"). Times `t` are the
/// client's own clock in milliseconds (`event.timeStamp`).
public enum ClientMessage: Sendable, Equatable {
    public struct Hello: Sendable, Equatable {
        public var version: Int
        public var room: String
        public var theme: String
        public var reducedMotion: Bool
        /// The scene a new room is made with; nil: the default scene.
        public var scene: String?
        /// The defaults are the wire's (docs/PROTOCOL.md), with this build's protocol version.
        public init(
            version: Int = ProtocolVersion.current, room: String = ClientMessageLimits.defaultRoom,
            theme: String = Theme.light.name, reducedMotion: Bool = false, scene: String? = nil
        ) {
            self.version = version; self.room = room; self.theme = theme; self.reducedMotion = reducedMotion;
            self.scene = scene
        }
    }
    public struct Sample: Sendable, Equatable {
        public var x: Double, y: Double, t: Double
        public init(x: Double, y: Double, t: Double) { self.x = x; self.y = y; self.t = t }
    }
    public struct Pointer: Sendable, Equatable {
        public var phase: PointerPhase
        public var id: Int
        public var pointerType: String
        /// Every coalesced sample in order (one for down/up/cancel).
        public var samples: [Sample]
        public init(phase: PointerPhase, id: Int, pointerType: String = "mouse", samples: [Sample]) {
            self.phase = phase; self.id = id; self.pointerType = pointerType; self.samples = samples
        }
        /// One sample: a down, up or cancel, or a move without coalesced samples.
        public init(phase: PointerPhase, id: Int, x: Double, y: Double, t: Double, pointerType: String = "mouse") {
            self.init(phase: phase, id: id, pointerType: pointerType, samples: [Sample(x: x, y: y, t: t)])
        }
    }
    public struct Wheel: Sendable, Equatable {
        public var x: Double, y: Double, dx: Double, dy: Double, deltaMode: Int, t: Double
        public init(x: Double, y: Double, dx: Double, dy: Double, deltaMode: Int = 0, t: Double) {
            self.x = x; self.y = y; self.dx = dx; self.dy = dy; self.deltaMode = deltaMode; self.t = t
        }
    }
    /// A widget driven by name; `widget` nil: the scene's default focus.
    public struct Action: Sendable, Equatable {
        public var widget: String?
        public var action: String
        public var args: [String: JSONValue]
        public var t: Double
        public init(widget: String?, action: String, args: [String: JSONValue] = [:], t: Double) {
            self.widget = widget; self.action = action; self.args = args; self.t = t
        }
    }

    case hello(Hello)
    case pointer(Pointer)
    case wheel(Wheel)
    /// `widget` nil: the scene's default focus (the server names it before recording).
    case key(key: String, widget: String?, t: Double)
    case action(Action)
    case ping(t: Double)
    /// The mouse moved over the scene with no button down (`at`), or left it (nil). Drawn to
    /// the room's other clients as a dot; never given to a widget, never recorded.
    case hover(at: Point?, t: Double)
    /// The page's preferences changed (the system's colour scheme or reduced motion, or the
    /// user's toggle): from the next frame on, this client is drawn for them. Absent: unchanged.
    case preferences(theme: String?, reducedMotion: Bool?)
}

public enum ClientMessageLimits {
    public static let maxBytes = 16 * 1024
    public static let maxCoalesced = 128
    /// Coordinates beyond this (pt) are nonsense, not a drag off the canvas.
    public static let maxCoordinate = 1_000_000.0
    public static let maxDelta = 100_000.0
    public static let roomPattern = "1–64 characters of A–Z, a–z, 0–9, _ or -"
    public static let defaultRoom = "lobby"
    /// An action's `args`: a few small values, not a payload.
    public static let maxArgs = 16
    public static let maxArgsDepth = 4
    /// Any string in `args`, at any depth (values and the names of nested objects).
    public static let maxArgStringBytes = 256
}

extension ClientMessage {
    public static func isValidRoom(_ room: String) -> Bool { FieldRule.identifier.validate(room) != nil }

    /// The client timestamps (ms) of the message's first and last input (several for coalesced
    /// pointer samples); nil when it carries no input. A trace is anchored on the first; `applied`
    /// echoes the last.
    public var inputTimes: (first: Double, last: Double)? {
        switch self {
        case .pointer(let p):
            guard let first = p.samples.first, let last = p.samples.last else { return nil }
            return (first.t, last.t)
        case .wheel(let w): return (w.t, w.t)
        case .key(_, _, let t): return (t, t)
        case .action(let a): return (a.t, a.t)
        case .hello, .ping, .hover, .preferences: return nil
        }
    }

    /// The message with an absent widget replaced by `focus` (the scene's default focus), so
    /// a recorded line says where its input went.
    public func naming(focus: @autoclosure () -> String?) -> ClientMessage {
        // `focus` is asked only here (not at every pointer move: it lists the scene's keys).
        switch self {
        case .key(let key, .none, let t): return .key(key: key, widget: focus(), t: t)
        case .action(var a) where a.widget == nil:
            a.widget = focus()
            return .action(a)
        default: return self
        }
    }
}
