/// Identifies one pointer of one client (several browsers can share a room).
public struct PointerKey: Hashable, Sendable {
    public var client: String
    public var pointer: Int
    public init(client: String, pointer: Int) { self.client = client; self.pointer = pointer }
}

public enum PointerPhase: String, Sendable, CaseIterable { case down, move, up, cancel }

/// A pointer sample in scene points. `clientTime` is the client's own clock (s):
/// velocity comes from it, never from arrival times.
public struct PointerInput: Sendable, Equatable {
    public var phase: PointerPhase
    public var key: PointerKey
    public var position: Point
    public var clientTime: Double
    public init(phase: PointerPhase, key: PointerKey, position: Point, clientTime: Double) {
        self.phase = phase; self.key = key; self.position = position; self.clientTime = clientTime
    }
}

/// The unit of wheel deltas, as DOM `WheelEvent.deltaMode` numbers them.
public enum WheelUnit: Int, Sendable, CaseIterable {
    case points = 0
    case lines = 1
    case pages = 2
}

/// Wheel deltas as the page sent them, in `unit`. How long a page is depends on the widget
/// under the wheel, so the widget converts (`points(page:)`).
public struct WheelInput: Sendable, Equatable {
    public static let lineHeight = 16.0

    public var position: Point
    public var dx: Double, dy: Double
    public var unit: WheelUnit
    public init(position: Point, dx: Double, dy: Double, unit: WheelUnit = .points) {
        self.position = position; self.dx = dx; self.dy = dy; self.unit = unit
    }

    /// The deltas in points, for a widget whose page is `page` points long.
    public func points(page: Double) -> (dx: Double, dy: Double) {
        let size =
            switch unit {
            case .points: 1.0
            case .lines: Self.lineHeight
            case .pages: page
            }
        return (dx * size, dy * size)
    }
}

/// Something a widget reports, stamped with scene time.
public struct SceneEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `final` is true exactly once per gesture, when the value has come to rest.
        case value(Double, text: String, final: Bool)
        /// A different tick became the centre tick (the picker's `moved(index)`).
        case moved(Int)
        /// The carousel's selection settled on a new item, or the same item at a new index.
        case selected(index: Int, name: String)
        case added(index: Int, name: String)
        case deleted(index: Int, name: String)
        case haptic(String)
        case announcement(String)
    }
    public var time: Double
    public var widget: String
    public var kind: Kind
    public init(time: Double, widget: String, kind: Kind) { self.time = time; self.widget = widget; self.kind = kind }
}

/// What assistive technology (and tests) see of a widget; the page mirrors it in the DOM.
public struct Semantics: Sendable, Equatable {
    public var id: String
    public var role: String
    public var label: String
    public var frame: Rect
    public var valueNow: Double?
    public var valueMin: Double?
    public var valueMax: Double?
    public var valueText: String?
    /// The DOM keys and the actions the widget handles (the scene fills them in from
    /// `Widget.keys` and `Widget.actions`); the page prevents default only for these keys.
    public var keys: [String]
    public var actions: [String]
    /// Which of `actions` sets its value (the scene fills it in from `Widget.valueSetter`).
    public var set: ValueSetter?
    /// A listbox's options, in order.
    public var options: [SemanticOption]
    /// The layer whose glide a pointer down inside `frame` catches (the scene fills it in from
    /// `Widget.catchesGlides`): a page may hold that layer's track where it is until the server
    /// answers the down (docs/PROTOCOL.md, "A catch").
    public var catches: UInt16?
    public init(
        id: String, role: String, label: String, frame: Rect, valueNow: Double? = nil,
        valueMin: Double? = nil, valueMax: Double? = nil, valueText: String? = nil,
        keys: [String] = [], actions: [String] = [], set: ValueSetter? = nil, options: [SemanticOption] = []
    ) {
        self.id = id; self.role = role; self.label = label; self.frame = frame
        self.valueNow = valueNow; self.valueMin = valueMin; self.valueMax = valueMax; self.valueText = valueText
        self.keys = keys; self.actions = actions; self.set = set; self.options = options
    }
}

/// One option of a listbox (a carousel item): the page mirrors it as a DOM `option`.
public struct SemanticOption: Sendable, Equatable {
    public var id: String
    public var label: String
    public var selected: Bool
    public var frame: Rect
    public init(id: String, label: String, selected: Bool, frame: Rect) {
        self.id = id; self.label = label; self.selected = selected; self.frame = frame
    }
}

/// A widget owns its state and physics. All calls come with scene time (s), in
/// non-decreasing order; `advance(to:)` is called before every input.
public protocol Widget: AnyObject {
    var id: String { get }
    var frame: Rect { get }
    /// True while time alone changes what the widget shows (the frame clock must tick).
    var isAnimating: Bool { get }
    var semantics: Semantics { get }

    /// Returns false to decline a pointer down (then it is not captured).
    func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool
    /// The client holding the widget left: `lift` is an up where its pointer last was. A drag
    /// ends as if lifted (momentum, snap); a tap, swipe or press in progress is not performed.
    func release(_ lift: PointerInput, at time: Double, events: inout [SceneEvent])
    func wheel(_ input: WheelInput, at time: Double, events: inout [SceneEvent])
    /// The DOM key names `key(_:)` handles; the page prevents their default action.
    var keys: [String] { get }
    /// Returns false when the key means nothing to this widget.
    func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool
    /// The names of the actions `perform` understands.
    var actions: [String] { get }
    /// Which of `actions` sets the widget's value, and how; nil: none does.
    var valueSetter: ValueSetter? { get }
    /// Refuses `action` (one of `actions`) when its arguments will not do, changing nothing:
    /// the server asks before it records an action, the scene before it performs one.
    func check(_ action: ActionInput) throws(ActionError)
    /// Performs an action that passed `check`.
    func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError)
    func advance(to time: Double, events: inout [SceneEvent])
    func render(into list: inout DisplayList, theme: Theme)
    /// Everything its drawing depends on besides the theme, or nil to be drawn every frame:
    /// while the key stays the same the scene reuses the last drawing.
    var drawingKey: DrawingKey? { get }
    /// `drawingKey` as drawn for `theme`: a widget drawn otherwise with reduced motion (the
    /// carousel's cross-fades) may tell the two apart; by default the same.
    func drawingKey(for theme: Theme) -> DrawingKey?
    /// What the `scroll` ops of its drawing translate by (its layer's offset): a widget whose
    /// content only slides keeps its `drawingKey` and moves this, and the frame carries a few
    /// bytes instead of its ops.
    var layerOffset: Point { get }
    /// How `layerOffset` moves from now on if no input comes, while its drawing stays the same
    /// all the way: the frame carries it as a track the page plays (docs/PROTOCOL.md, "Tracks").
    /// Nil: offsets go frame by frame (held, at rest, or the drawing changes on the way).
    var layerMotion: LayerMotion? { get }
    /// Layers of its own after its main one, each moving on its own (the roller's digit
    /// columns); most widgets have none (`hasParts` false, and `parts` is not asked).
    var hasParts: Bool { get }
    var parts: [WidgetPart] { get }
    /// Draws part `k` of `parts` for `theme`: asked only when its key for the theme is new.
    func renderPart(_ k: Int, into list: inout DisplayList, theme: Theme)
    /// Where part `k`'s offset goes while it moves on its own (`WidgetPart.motion`): asked only
    /// when its motion's key is new; nil: it cannot say (no track).
    func partPlan(_ k: Int) -> MotionPlan?
    /// Whether a pointer down on it stops what glides in its layer (a scroll view's catch).
    var catchesGlides: Bool { get }
    /// While a pointer holds it: how its layer follows that pointer (a page may predict it);
    /// nil: not one to one (its drawing changes with its offset, or nothing slides).
    var pointerFollow: PointerFollow? { get }
    /// While it moves on its own and only input could change how: a key naming this glide (any
    /// input that changes it changes the key). A room then sends `eventsAhead()` at once, with
    /// their times, instead of each as it happens (docs/PROTOCOL.md, "Events ahead"). Nil: its
    /// events go as they happen (held, or at rest).
    var glideKey: Int? { get }
    /// Every event it will make from now until it rests if no input comes, but the rest's own
    /// (a final value, said at the rest); asked once per `glideKey`.
    func eventsAhead() -> [SceneEvent]
    /// What moves when it moves (its offset, the number it shows), for plotting its motion;
    /// nil: nothing of it moves on its own (labels, buttons).
    var motionReading: MotionReading? { get }

    /// Its part of the scene's snapshot: what it has settled on, as a small JSON object
    /// (docs/STATE.md); nil: it keeps nothing.
    var snapshot: JSONValue? { get }
    /// Puts back a `snapshot` into a widget of a new scene, at rest as if it had settled
    /// there; refuses one it cannot hold (out of range, unknown field), naming the field.
    func restore(_ snapshot: JSONValue) throws(SnapshotError)
}

extension Widget {
    public var drawingKey: DrawingKey? { nil }
    public func drawingKey(for theme: Theme) -> DrawingKey? { drawingKey }
    public var layerOffset: Point { .zero }
    public var layerMotion: LayerMotion? { nil }
    public var hasParts: Bool { false }
    public var catchesGlides: Bool { false }
    public var parts: [WidgetPart] { [] }
    public func renderPart(_ k: Int, into list: inout DisplayList, theme: Theme) {}
    public func partPlan(_ k: Int) -> MotionPlan? { nil }
    public var pointerFollow: PointerFollow? { nil }
    public var glideKey: Int? { nil }
    public func eventsAhead() -> [SceneEvent] { [] }
    public var motionReading: MotionReading? { nil }
    /// By default a departed holder's gesture is cancelled: nothing it would have done happens.
    public func release(_ lift: PointerInput, at time: Double, events: inout [SceneEvent]) {
        var cancel = lift
        cancel.phase = .cancel
        _ = pointer(cancel, at: time, events: &events)
    }
    public func wheel(_ input: WheelInput, at time: Double, events: inout [SceneEvent]) {}
    public var keys: [String] { [] }
    public func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool { false }
    public var actions: [String] { [] }
    public var valueSetter: ValueSetter? { nil }
    public func check(_ action: ActionInput) throws(ActionError) {}
    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {}
    public var snapshot: JSONValue? { nil }
    public func restore(_ snapshot: JSONValue) throws(SnapshotError) {
        throw SnapshotError("\(id): this widget keeps no snapshot")
    }
}

extension Widget {
    /// Its own drawing, then each part's, in the scene's layer order (tests and tools; the
    /// scene draws them with its cache).
    public func drawings(theme: Theme) -> [DisplayList] {
        var list = DisplayList()
        render(into: &list, theme: theme)
        return [list]
            + (hasParts ? parts : []).indices.map { k in
                var list = DisplayList()
                renderPart(k, into: &list, theme: theme)
                return list
            }
    }
}

/// One of a widget's layers after its main one (`Widget.parts`): what the scene needs of it every
/// frame, as values (no closure to make for each part each frame). Its drawing and its motion's
/// plan are the widget's to make (`renderPart`, `partPlan`), asked only when a key is new.
public struct WidgetPart: Sendable {
    /// Everything its drawing depends on besides the theme's colours; nil: drawn every frame.
    public var key: DrawingKey?
    /// The same for a theme with reduced motion, which may draw it from other things.
    public var reducedKey: DrawingKey?
    /// What its `scroll` ops translate by.
    public var offset: Point
    /// While it moves on its own: its motion's key and axes, as `LayerMotion`'s (the plan is
    /// `Widget.partPlan`); nil: it stands still.
    public var motion: (key: DrawingKey, axes: Track.Axes)?

    public init(
        key: DrawingKey?, reducedKey: DrawingKey?, offset: Point, motion: (key: DrawingKey, axes: Track.Axes)? = nil
    ) {
        self.key = key
        self.reducedKey = reducedKey
        self.offset = offset
        self.motion = motion
    }

    /// Its key for `theme`.
    public func key(for theme: Theme) -> DrawingKey? { theme.reducedMotion ? reducedKey : key }
}
