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
    /// The readouts and the widgets they follow.
    public let bindings: [ReadoutBinding]
    /// The bindings resolved, in the readouts' order.
    private let links: [ReadoutLink]
    /// Which widget each pointer drives, with the pointer's last sample (for a holder leaving).
    private var captures: [PointerKey: Capture] = [:]
    /// Changes whenever a pointer starts or stops holding a widget (not as it moves): what
    /// `holders` lists is the same while it stands (a room redraws its outlines only then).
    public private(set) var holdersVersion = 0
    /// Per theme (and motion preference), each widget's last list and the key it was drawn for,
    /// and its parts' likewise.
    /// A list, not a dictionary: a room has a theme or two, and comparing a short name costs
    /// less than hashing it twice a frame.
    private var drawings: [(theme: String, drawn: Drawn)] = []
    private struct Drawn {
        var widgets: [(key: DrawingKey, list: DisplayList)?]
        /// By widget, then part.
        var parts: [[(key: DrawingKey, list: DisplayList)?]]
        /// The background layer's (the theme's colour over the whole scene).
        var background: DisplayList?
        /// The layers of the last frame: the next one's capacity.
        var layerCount = 0
        init(count: Int) {
            widgets = Array(repeating: nil, count: count)
            parts = Array(repeating: [], count: count)
        }
    }
    private var pendingEvents: [SceneEvent] = []
    /// Each widget's track and the motion it was fitted to (`Widget.layerMotion`'s key), by index.
    private var tracks: [(key: DrawingKey, track: Track?)?] = []
    /// The same for widgets' parts (`Widget.parts`), by widget, then part.
    private var partTracks: [[(key: DrawingKey, track: Track?)?]] = []

    /// Its random numbers; the server reseeds a new room's and records the seed.
    public let dice: Dice

    /// Each readout of `bindings` starts at rest on its source's value.
    public init(
        name: String = "custom", size: Size, widgets: [Widget], bindings: [ReadoutBinding] = [], dice: Dice = Dice()
    ) {
        self.name = name
        self.size = size
        self.widgets = widgets
        self.bindings = bindings
        links = bindings.map { ReadoutLink($0, in: widgets) }.sorted { $0.readoutIndex < $1.readoutIndex }
        precondition(
            zip(links, links.dropFirst()).allSatisfy { $0.readoutIndex != $1.readoutIndex },
            "a readout follows one widget")
        self.dice = dice
        settleReadouts()
    }

    public var isAnimating: Bool { widgets.contains { $0.isAnimating } }
    /// The widgets whose events can go ahead now, with their glides' keys (`Widget.glideKey`).
    public var glides: [(widget: String, key: Int)] {
        widgets.compactMap { w in w.glideKey.map { (w.id, $0) } }
    }
    /// `Widget.eventsAhead()` of the widget named `id` (none for an unknown id).
    public func eventsAhead(of id: String) -> [SceneEvent] { widget(id)?.eventsAhead() ?? [] }
    public var semantics: [Semantics] {
        widgets.enumerated().map { i, w in
            var s = w.semantics
            s.keys = w.keys
            s.actions = w.actions
            s.set = w.valueSetter
            s.catches = w.catchesGlides ? UInt16(i + 1) : nil
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
        var link = 0
        for (i, w) in widgets.enumerated() {
            // A readout is given its source's value just before its own turn: one listed before
            // its source (the weight readout) sees where it was, one after it where it is now.
            if link < links.count, links[link].readoutIndex == i {
                links[link].push()
                link += 1
            }
            w.advance(to: t, events: &step)
        }
        // Mostly none or one, or already in order: kept as they are without a sort's copies.
        if zip(step, step.dropFirst()).allSatisfy({ $0.time <= $1.time }) {
            pendingEvents += step
        } else {
            pendingEvents += step.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }.map(\.element)
        }
        // Those given a value before their source moved are given the one it moved to.
        for j in links.indices where links[j].readoutIndex < links[j].sourceIndex { links[j].push() }
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
            for (key, capture) in held {
                captures[key] = nil
                holdersVersion &+= 1
                // Lifted now, where it last was: a finger that was moving keeps its momentum,
                // one that had stopped lifts with none (its client clock ran on meanwhile).
                let lift = PointerInput(
                    phase: .up, key: key, position: capture.last.position,
                    clientTime: capture.last.clientTime + (time - capture.lastTime))
                widgets[capture.widget].release(lift, at: time, events: &pendingEvents)
            }
        }
        pushReadouts()
    }

    /// Gives every readout its source's value, so that what it shows and whether it is
    /// animating are current whenever the scene is drawn or asked.
    private func pushReadouts() {
        for j in links.indices { links[j].push() }
    }

    /// Puts every readout at rest on its source's value (a new scene, a restored one).
    func settleReadouts() {
        for link in links { link.settle() }
    }

    /// Drops every cached drawing and track (the widgets were restored: a key may now draw
    /// differently, and a motion's key start again).
    func forgetDrawings() {
        drawings.removeAll()
        tracks.removeAll()
        partTracks.removeAll()
    }

    /// The layer of a widget's part: its index + 1 in the low byte, the part's number + 1 in the
    /// high one (docs/PROTOCOL.md, "Layers"), drawn right after the widget's own layer.
    public static func partLayerID(widget i: Int, part k: Int) -> UInt16 { UInt16((k + 1) << 8 | (i + 1)) }

    /// How the layer of the widget `client` holds follows its pointer, if it does (the first
    /// such widget, for a client holding several).
    public func follow(for client: String) -> LayerFollow? {
        // The first in widget order, as `holders` lists them, without making that list (asked
        // after every input).
        var first: Int?
        for (key, capture) in captures
        where key.client == client && widgets[capture.widget].pointerFollow != nil && capture.widget < (first ?? .max) {
            first = capture.widget
        }
        guard let first, let follow = widgets[first].pointerFollow else { return nil }
        return LayerFollow(layer: UInt16(first + 1), follow: follow)
    }

    /// Each held widget (index) and the client holding it, in widget order.
    public var holders: [(widget: Int, client: String)] {
        captures.map { (widget: $0.value.widget, client: $0.key.client) }.sorted { $0.widget < $1.widget }
    }

    /// Events emitted since the last call, in order.
    public func takeEvents() -> [SceneEvent] {
        defer { pendingEvents.removeAll(keepingCapacity: true) }
        return pendingEvents
    }

    /// One layer per widget (id = index + 1), each followed by its parts' (`partLayerID`), over a
    /// background layer (id 0). A widget whose `drawingKey(for:)` is what it was when last drawn for
    /// this theme is not drawn again: its list is reused (most widgets stand still while one
    /// moves); its `layerOffset` is the layer's offset either way. Parts likewise.
    public func render(theme: Theme) -> [Layer] {
        // Taken out and put back once (moved, not copied, so its lists stay unshared); nothing a
        // widget draws calls back into the scene, so no render runs while it is out.
        let cache = theme.renderKey
        let at =
            drawings.firstIndex { $0.theme == cache }
            ?? {
                drawings.append((cache, Drawn(count: widgets.count)))
                return drawings.count - 1
            }()
        var drawn = Drawn(count: 0)
        swap(&drawn, &drawings[at].drawn)
        defer { swap(&drawn, &drawings[at].drawn) }
        var layers: [Layer] = []
        // Room for the parts' layers and the one a room adds (presence) after them.
        layers.reserveCapacity(max(widgets.count + 1, drawn.layerCount) + 1)
        if drawn.background == nil {
            var background = DisplayList(reservingCapacity: 32)
            background.setFill(theme.background)
            background.fillRect(Rect(x: 0, y: 0, width: size.width, height: size.height))
            drawn.background = background
        }
        layers.append(Layer(id: 0, list: drawn.background!))
        for (i, w) in widgets.enumerated() {
            let key = w.drawingKey(for: theme)
            let list: DisplayList
            if let key, let hit = drawn.widgets[i], hit.key == key {
                list = hit.list
            } else {
                var fresh = DisplayList(reservingCapacity: 1024)
                w.render(into: &fresh, theme: theme)
                drawn.widgets[i] = key.map { ($0, fresh) }
                list = fresh
            }
            layers.append(Layer(id: UInt16(i + 1), list: list, offset: w.layerOffset, track: track(of: i)))
            if w.hasParts { appendParts(of: i, theme: theme, drawn: &drawn.parts[i], into: &layers) }
        }
        drawn.layerCount = layers.count
        return layers
    }

    /// Widget `i`'s parts' layers, after its own, drawn and fitted as a widget's layer is.
    private func appendParts(
        of i: Int, theme: Theme, drawn: inout [(key: DrawingKey, list: DisplayList)?], into layers: inout [Layer]
    ) {
        let widget = widgets[i]
        let parts = widget.parts
        // A widget may grow parts (a roller's columns); one that had more keeps their entries,
        // which their keys still check.
        if drawn.count < parts.count { drawn += Array(repeating: nil, count: parts.count - drawn.count) }
        if partTracks.count != widgets.count { partTracks = Array(repeating: [], count: widgets.count) }
        if partTracks[i].count < parts.count {
            partTracks[i] += Array(repeating: nil, count: parts.count - partTracks[i].count)
        }
        for (k, part) in parts.enumerated() {
            let key = part.key(for: theme)
            let list: DisplayList
            if let key, let hit = drawn[k], hit.key == key {
                list = hit.list
            } else {
                var fresh = DisplayList(reservingCapacity: 256)
                widget.renderPart(k, into: &fresh, theme: theme)
                drawn[k] = key.map { ($0, fresh) }
                list = fresh
            }
            let track = fitted(part.motion, cached: &partTracks[i][k]) { widget.partPlan(k) }
            layers.append(
                Layer(id: Self.partLayerID(widget: i, part: k), list: list, offset: part.offset, track: track))
        }
    }

    /// A motion's track, fitted when its key is new, else the one `cached` (which it updates).
    private func fitted(_ motion: LayerMotion?, cached: inout (key: DrawingKey, track: Track?)?) -> Track? {
        fitted(motion.map { ($0.key, $0.axes) }, cached: &cached) { motion?.plan() }
    }

    /// The same for a motion known by its key and axes, its plan made only when the key is new.
    private func fitted(
        _ motion: (key: DrawingKey, axes: Track.Axes)?, cached: inout (key: DrawingKey, track: Track?)?,
        plan: () -> MotionPlan?
    ) -> Track? {
        guard let motion else {
            if cached != nil { cached = nil }
            return nil
        }
        if let hit = cached, hit.key == motion.key { return hit.track }
        let track = plan().flatMap { plan in
            plan.keyframes.flatMap { Track(axes: motion.axes, keyframes: $0, wrap: plan.wrap) }
                ?? TrackFitter.fit(
                    from: time, to: plan.end, breaks: plan.breaks, axes: motion.axes, wrap: plan.wrap,
                    position: plan.offset)
        }
        cached = (motion.key, track)
        return track
    }

    /// Widget `i`'s layer offset as a track while it moves on its own: fitted when its motion
    /// is first drawn, from then until it rests, and the same track on every frame after that
    /// until input changes the motion.
    private func track(of i: Int) -> Track? {
        if tracks.count != widgets.count { tracks = Array(repeating: nil, count: widgets.count) }
        return fitted(widgets[i].layerMotion, cached: &tracks[i])
    }

    // A down is hit-tested (topmost first) and captures the pointer; the rest of
    // the gesture goes to the captor wherever the pointer wanders. A widget has one
    // captor at a time: the first down wins (docs/PROTOCOL.md, "Sharing a room").
    private func route(_ p: PointerInput) {
        switch p.phase {
        case .down:
            if let old = captures[p.key] {
                // A down without an up (lost event): end the old gesture first.
                var cancel = p
                cancel.phase = .cancel
                _ = widgets[old.widget].pointer(cancel, at: time, events: &pendingEvents)
                captures[p.key] = nil
                holdersVersion &+= 1
            }
            for i in widgets.indices.reversed() where widgets[i].frame.contains(p.position) {
                // Held by another pointer: this down is ignored, not passed to what lies below.
                if captures.values.contains(where: { $0.widget == i }) { return }
                if widgets[i].pointer(p, at: time, events: &pendingEvents) {
                    captures[p.key] = Capture(widget: i, last: p, lastTime: time)
                    holdersVersion &+= 1
                    return
                }
            }
        case .move:
            // Found once (its key hashes a client's name), updated in place.
            guard let at = captures.index(forKey: p.key) else { return }
            captures.values[at].last = p
            captures.values[at].lastTime = time
            _ = widgets[captures.values[at].widget].pointer(p, at: time, events: &pendingEvents)
        case .up, .cancel:
            if let capture = captures.removeValue(forKey: p.key) {
                holdersVersion &+= 1
                _ = widgets[capture.widget].pointer(p, at: time, events: &pendingEvents)
            }
        }
    }
}

/// A captured pointer: the widget it drives and its last sample, applied at `lastTime`.
private struct Capture {
    let widget: Int
    var last: PointerInput
    var lastTime: Double
}
