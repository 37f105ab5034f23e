/// Input to a scene, already validated and in scene points.
public enum SceneInput: Sendable, Equatable {
    case pointer(PointerInput)
    case wheel(WheelInput)
    /// `widget` is the focused widget's id; nil: the scene's default focus.
    case key(String, widget: String?)
    /// Checked with `check(_:)` first; an action it refuses changes nothing.
    case action(ActionInput)
    /// A client left: its pointers are cancelled.
    case leave(client: String)
}

/// The widgets of one room, their pointer captures and their clock.
/// Deterministic: the same inputs at the same times give the same frames and events.
public final class Scene {
    /// The catalog name it was made from (SceneCatalog), or "custom".
    public let name: String
    public let size: Size
    public private(set) var time: Double = 0
    public private(set) var widgets: [Widget]
    private var captures: [PointerKey: Int] = [:]
    /// Per theme (and motion preference), each widget's last list and the key it was drawn for.
    private var drawings: [String: [(key: AnyHashable, list: DisplayList)?]] = [:]
    private var pendingEvents: [SceneEvent] = []

    /// Its random numbers; the server reseeds a new room's and records the seed.
    public let dice: Dice

    public init(name: String = "custom", size: Size, widgets: [Widget], dice: Dice = Dice()) {
        self.name = name
        self.size = size
        self.widgets = widgets
        self.dice = dice
    }

    public var isAnimating: Bool { widgets.contains { $0.isAnimating } }
    public var semantics: [Semantics] {
        widgets.map { w in
            var s = w.semantics
            s.keys = w.keys
            s.actions = w.actions
            return s
        }
    }

    public func widget(_ id: String) -> Widget? { widgets.first { $0.id == id } }

    /// Where keys go when no widget is named: the first widget that handles keys.
    public var defaultFocus: Widget? { widgets.first { !$0.keys.isEmpty } }

    /// The widget named `id`, or the default focus when there is no id.
    public func focus(_ id: String?) -> Widget? { id.map(widget) ?? defaultFocus }

    /// Moves the clock forward (never back) and lets animations run.
    public func advance(to t: Double) {
        guard t > time else { return }
        time = t
        // Each widget stamps its events with the exact times they happened within the step,
        // so two widgets moving at once interleave: merge by time (stable, so one widget's
        // same-time events keep their order) or the order would follow the frame rate.
        var step: [SceneEvent] = []
        for w in widgets { w.advance(to: t, events: &step) }
        pendingEvents += step.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
    }

    public func apply(_ input: SceneInput, at t: Double) {
        advance(to: t)
        switch input {
        case .pointer(let p):
            route(p)
        case .wheel(let w):
            if let target = widgets.last(where: { $0.frame.contains(w.position) }) {
                target.wheel(w, at: time, events: &pendingEvents)
            }
        case .key(let key, let id):
            _ = focus(id)?.key(key, at: time, events: &pendingEvents)
        case .action(let action):
            do {
                try check(action).perform(action, at: time, events: &pendingEvents)
            } catch {
                // Refused: nothing changed. Whoever sent it learns why from `check`.
            }
        case .leave(let client):
            // Sorted: dictionary order varies between runs, event order must not.
            let held = captures.filter { $0.key.client == client }.sorted { $0.key.pointer < $1.key.pointer }
            for (key, index) in held {
                let cancel = PointerInput(phase: .cancel, key: key, position: Point(x: 0, y: 0), clientTime: 0)
                _ = widgets[index].pointer(cancel, at: time, events: &pendingEvents)
                captures[key] = nil
            }
        }
    }

    /// Events emitted since the last call, in order.
    public func takeEvents() -> [SceneEvent] {
        defer { pendingEvents.removeAll(keepingCapacity: true) }
        return pendingEvents
    }

    /// One layer per widget (id = index + 1) over a background layer (id 0). A widget whose
    /// `drawingKey` is what it was when last drawn for this theme is not drawn again: its list
    /// is reused (most widgets stand still while one moves).
    public func render(theme: Theme) -> [Layer] {
        var layers: [Layer] = []
        layers.reserveCapacity(widgets.count + 1)
        var background = DisplayList(reservingCapacity: 32)
        background.setFill(theme.background)
        background.fillRect(Rect(x: 0, y: 0, width: size.width, height: size.height))
        layers.append(Layer(id: 0, list: background))
        let cache = theme.renderKey
        if drawings[cache] == nil { drawings[cache] = Array(repeating: nil, count: widgets.count) }
        for (i, w) in widgets.enumerated() {
            let key = w.drawingKey
            if let key, let hit = drawings[cache]?[i], hit.key == key {
                layers.append(Layer(id: UInt16(i + 1), list: hit.list))
                continue
            }
            var list = DisplayList(reservingCapacity: 1024)
            w.render(into: &list, theme: theme)
            drawings[cache]?[i] = key.map { ($0, list) }
            layers.append(Layer(id: UInt16(i + 1), list: list))
        }
        return layers
    }

    // A down is hit-tested (topmost first) and captures the pointer; the rest of
    // the gesture goes to the captor wherever the pointer wanders.
    private func route(_ p: PointerInput) {
        switch p.phase {
        case .down:
            if let old = captures[p.key] {
                // A down without an up (lost event): end the old gesture first.
                var cancel = p
                cancel.phase = .cancel
                _ = widgets[old].pointer(cancel, at: time, events: &pendingEvents)
                captures[p.key] = nil
            }
            for i in widgets.indices.reversed() where widgets[i].frame.contains(p.position) {
                if widgets[i].pointer(p, at: time, events: &pendingEvents) {
                    captures[p.key] = i
                    return
                }
            }
        case .move:
            if let i = captures[p.key] { _ = widgets[i].pointer(p, at: time, events: &pendingEvents) }
        case .up, .cancel:
            if let i = captures.removeValue(forKey: p.key) {
                _ = widgets[i].pointer(p, at: time, events: &pendingEvents)
            }
        }
    }
}
