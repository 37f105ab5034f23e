/// The carousel (WIDGETS.md §3, seed 004): a row of items, five cells visible, the centred one
/// largest; it glides fast, always comes to rest centred on an item, and items are tapped to
/// the centre, added (tap "Custom") and deleted (swipe up), all animated.
public final class Carousel: ReadoutSource {
    /// Every timed animation here (snap, tap, add, delete), as UIKit's animated scrolls.
    public static let animationDuration = 0.3
    public static let customName = "Custom"
    /// A bound on what add can grow the row to (the protocol must not grow memory for ever).
    public static let maxItems = 50
    /// An item's name (add, a stored snapshot): it is in every semantics message, every frame
    /// that shows it and the snapshot, so its bytes are bounded as well as its characters.
    public static let itemName = FieldRule<String, String>.string(length: 1...32)

    public let id: String
    public let frame: Rect
    private(set) var items: [CarouselItem]
    private(set) var leaving: [LeavingItem] = []
    /// The latest add or delete, as its drawing plays it.
    private(set) var change: CarouselChange?
    private(set) var axis: ScrollAxis
    /// Scene time of the latest call (drawing reads animations at it).
    private(set) var now = 0.0

    private var pointer: PointerKey?
    private var gesture: PointerGesture?
    /// The item the finger came down on: a tap or swipe acts on it, even if items slid since.
    private var touchedUID: Int?
    /// The down stopped a glide: that touch is not a tap.
    private var caught = false
    /// The index it is animating to, once known (tap, key, action, add, delete).
    private var heading: Int?
    private(set) var madeCount: Int
    private var nextUID: Int
    /// Something changed since the selection last settled.
    private var unsettled = false
    /// The index of the settled selection; it follows its item while others come and go.
    public private(set) var selection: Int
    /// The settled selection: its name stays on the label until the next one settles, even
    /// while the item itself leaves.
    private var selected: (uid: Int, name: String)
    /// The index last reported with `selected`.
    private var reportedIndex: Int

    public init(id: String = "carousel", frame: Rect) {
        self.id = id
        self.frame = frame
        items = CarouselIcon.defaults.enumerated().map { i, d in
            CarouselItem(uid: i, name: d.name, icon: d.icon, slot: i)
        }
        madeCount = items.count
        nextUID = items.count
        selection = 2
        selected = (items[2].uid, items[2].name)
        reportedIndex = 2
        axis = Self.axis(resting: 2, count: items.count, frame: frame)
    }

    /// At rest centred on item `index` of `count`.
    private static func axis(resting index: Int, count: Int, frame: Rect) -> ScrollAxis {
        let w = frame.width / 5
        return ScrollAxis(
            offset: Double(index) * w, edges: edges(count: count, frame: frame),
            snap: SnapRule(step: w, mode: .afterRest, settleDuration: animationDuration), rate: .fast)
    }

    /// Rests centred on `selection` among `items`, nothing moving, as if it had settled there
    /// (a restored snapshot). `made`: items ever made (the next uid, and the next "Item N").
    func reset(items: [CarouselItem], selection: Int, made: Int) {
        self.items = items
        leaving = []
        change = nil
        madeCount = made
        nextUID = made
        pointer = nil
        gesture = nil
        touchedUID = nil
        caught = false
        heading = nil
        unsettled = false
        self.selection = selection
        selected = (items[selection].uid, items[selection].name)
        reportedIndex = selection
        axis = Self.axis(resting: selection, count: items.count, frame: frame)
    }

    /// Five cells across the frame.
    public var cell: Double { frame.width / 5 }
    public var count: Int { items.count }
    public var names: [String] { items.map(\.name) }
    public var selectedName: String { selected.name }
    /// What its label shows.
    public var readoutValue: ReadoutValue { .text(selectedName) }
    public var contentOffset: Double { axis.offset(at: now) }
    public var motionReading: MotionReading? { MotionReading(offsetOf: axis, at: now) }

    /// Item 0 to the last can be centred; beyond, the rubber band.
    private static func edges(count: Int, frame: Rect) -> AxisEdges {
        .rubberBand(min: 0, max: frame.width / 5 * Double(count - 1), dimension: frame.width)
    }

    /// When the last item animation ends (−∞ when none ran).
    private var animationEnd: Double {
        // Read every frame: folded, not mapped, so nothing is allocated.
        let itemsEnd = items.reduce(-Double.infinity) { max($0, $1.animationEnd) }
        return leaving.reduce(itemsEnd) { max($0, $1.start + Self.animationDuration) }
    }

    public var isAnimating: Bool { axis.isMoving || now < animationEnd }
    /// The row of items, which only an add (a new uid) or a delete (one fewer) changes: items
    /// coming, going and sliding to their new slots are tweens the page plays (`render`).
    public var drawingKey: DrawingKey? { DrawingKey(Double(nextUID), Double(items.count)) }
    /// With reduced motion, the cross-fade of an add or a delete is a drawing of its own, until it ends.
    public func drawingKey(for theme: Theme) -> DrawingKey? {
        var key = drawingKey
        if theme.reducedMotion, crossFading { key?.c = 1 }
        return key
    }
    /// Reduced motion cross-fades from the row at the last add or delete (`crossFade`).
    var crossFading: Bool { change.map { now < $0.time + Self.animationDuration } ?? false }
    /// Content offset x is under the centre.
    public var layerOffset: Point { Point(x: -contentOffset, y: 0) }
    /// A glide (a fling, a snap, an ease to an item): one track, while items come and go too.
    public var layerMotion: LayerMotion? {
        guard axis.isMoving, axis.phase != .tracking else { return nil }
        return LayerMotion(key: DrawingKey(Double(axis.revision), Double(nextUID), Double(items.count)), axes: .x) {
            [self] in
            axis.plannedPath(from: now).map { MotionPlan(layerOf: $0) }
        }
    }

    /// Seed 004's scale for an item in slot `slot` at content offset `offset`: 1.2 centred,
    /// 0.6 two cells away and off screen; cells only partly on screen go below 0.6, as there.
    public static func scale(slot: Double, offset: Double, cell w: Double) -> Double {
        let lead = w * (slot + 2), sub = lead - offset
        if offset >= lead + w || offset + 5 * w <= lead { return 0.6 }
        return sub <= 2 * w ? sub / (2 * w) * 0.6 + 0.6 : (5 * w - sub - w) / (2 * w) * 0.6 + 0.6
    }

    // MARK: pointer

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool {
        now = time
        switch input.phase {
        case .down:
            // WIDGETS.md §3: a touch is ignored while the carousel animates to a target; declined,
            // so the row is not held by it (another finger may take it once the ease is done).
            guard axis.phase != .snapping else { return false }
            pointer = input.key
            heading = nil
            gesture = PointerGesture(at: input.position, time: input.clientTime)
            touchedUID = item(at: input.position).map { items[$0].uid }
            caught = axis.touchDown(at: input.position.x, clientTime: input.clientTime, time: time)
        case .move:
            guard input.key == pointer, var g = gesture else { return true }
            let recognition = g.move(to: input.position, time: input.clientTime)
            gesture = g
            switch recognition {
            case let .dragStarted(at, clientTime):
                // The drag starts here: the slop is not applied to the content.
                axis.touchDown(at: at.x, clientTime: clientTime, time: time)
            case .swipeUp:
                // The row is let go at once: keys and the wheel work again while the finger is up.
                pointer = nil
                gesture = nil
                axis.touchCancel(time: time)
                if let k = touchedIndex, k != items.count - 1 { delete(k, at: time, events: &events) }
            default:
                if g.kind == .horizontalDrag {
                    axis.touchMove(to: input.position.x, clientTime: input.clientTime, time: time)
                }
            }
        case .up, .cancel:
            guard input.key == pointer, var g = gesture else { return true }
            pointer = nil
            gesture = nil
            if input.phase == .cancel {
                axis.touchCancel(time: time)
            } else if g.kind == .horizontalDrag {
                axis.touchUp(clientTime: input.clientTime, time: time)
            } else {
                let recognition = g.up(at: input.position, time: input.clientTime)
                axis.touchCancel(time: time)
                if case .tap = recognition, !caught { tap(at: time, events: &events) }
            }
        }
        unsettled = true
        update(at: time, events: &events)
        return true
    }

    /// A departed holder's drag ends as if lifted (fling, snap); a tap or a swipe it had not
    /// finished is not performed.
    public func release(_ lift: PointerInput, at time: Double, events: inout [SceneEvent]) {
        var end = lift
        if gesture?.kind != .horizontalDrag { end.phase = .cancel }
        _ = pointer(end, at: time, events: &events)
    }

    /// A wheel or trackpad scrolls the row (either axis; a page is the row's width) and, 0.15 s
    /// after the burst, it eases onto the nearest item. A finger on the row wins.
    public func wheel(_ input: WheelInput, at time: Double, events: inout [SceneEvent]) {
        now = time
        guard pointer == nil else { return }
        let (dx, dy) = input.points(page: frame.width)
        heading = nil
        axis.scroll(by: abs(dx) >= abs(dy) ? dx : dy, time: time)
        unsettled = true
        update(at: time, events: &events)
    }

    /// The item whose cell is under `point` now (cells move while items come and go).
    func item(at point: Point) -> Int? {
        guard frame.contains(point) else { return nil }
        let x = contentOffset
        return items.indices.first { i in
            let left = frame.minX + cell * (items[i].slot.value(at: now) + 2) - x
            return point.x >= left && point.x < left + cell
        }
    }

    /// Where the touched item is now; nil when it has left (or the touch hit no item).
    private var touchedIndex: Int? { touchedUID.flatMap { uid in items.firstIndex { $0.uid == uid } } }

    private func tap(at time: Double, events: inout [SceneEvent]) {
        guard let k = touchedIndex else { return }
        if k == items.count - 1 {
            add(name: nil, at: time, events: &events)
        } else {
            head(to: k, at: time)
        }
    }

    /// A finger down on the gliding row catches it.
    public var catchesGlides: Bool { true }

    // MARK: keys and actions

    public var keys: [String] {
        ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "Home", "End", "Delete", "Backspace", "Enter", " "]
    }

    public func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool {
        now = time
        guard keys.contains(key) else { return false }
        // A finger on the row owns it, as for the ruler and the picker.
        guard pointer == nil else { return true }
        let here = headingIndex
        switch key {
        case "ArrowLeft", "ArrowUp": head(to: max(here - 1, 0), at: time)
        case "ArrowRight", "ArrowDown": head(to: min(here + 1, items.count - 1), at: time)
        case "Home": head(to: 0, at: time)
        case "End": head(to: items.count - 1, at: time)
        case "Delete", "Backspace":
            // The selected item, wherever it is now; nothing once it has gone.
            if let k = items.firstIndex(where: { $0.uid == selected.uid }), k != items.count - 1 {
                delete(k, at: time, events: &events)
            }
        case "Enter", " ":
            // As a tap on it: on "Custom", once selected, a new item is added (keyboard users
            // have no other way to add one). On any other item there is nothing to do.
            if selected.uid == items[items.count - 1].uid { add(name: nil, at: time, events: &events) }
        default: return false
        }
        update(at: time, events: &events)
        return true
    }

    public var actions: [String] { ["select", "add", "delete"] }
    /// Its value is the selected item's name: set by selecting that item's index.
    public var valueSetter: ValueSetter? { ValueSetter(action: "select", argument: "index", takes: .option) }

    public func check(_ action: ActionInput) throws(ActionError) {
        switch action.name {
        case "select": _ = try index(action, upTo: items.count - 1)
        case "add": _ = try addedName(action)
        case "delete": _ = try deletable(action)
        default: break
        }
    }

    /// `select {index}` eases it to the centre; `add {name?}` inserts before "Custom" and
    /// centres it; `delete {index}` removes it ("Custom" stays).
    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {
        now = time
        switch action.name {
        case "select": head(to: try index(action, upTo: items.count - 1), at: time)
        case "add": add(name: try addedName(action), at: time, events: &events)
        case "delete": delete(try deletable(action), at: time, events: &events)
        default: return
        }
        update(at: time, events: &events)
    }

    private func index(_ action: ActionInput, upTo last: Int) throws(ActionError) -> Int {
        try action.argument("index", .integer(in: 0...last), on: id)
    }

    private func addedName(_ action: ActionInput) throws(ActionError) -> String? {
        guard items.count < Self.maxItems else {
            throw ActionError("add on \"\(id)\": the carousel holds at most \(Self.maxItems) items")
        }
        guard let name = action.args["name"], name != .null else { return nil }
        return try action.argument("name", Self.itemName, on: id)
    }

    private func deletable(_ action: ActionInput) throws(ActionError) -> Int {
        let k = try index(action, upTo: items.count - 1)
        guard k != items.count - 1 else {
            throw ActionError("delete on \"\(id)\": \"\(Self.customName)\" cannot be deleted")
        }
        return k
    }

    // MARK: changes

    /// The index it is on its way to: the one it animates to, else the one a glide will land
    /// on, else the one nearest the centre.
    private var headingIndex: Int { heading ?? nearestIndex(to: axis.destination ?? contentOffset) }

    private func nearestIndex(to offset: Double) -> Int {
        min(max(Int((offset / cell).rounded()), 0), items.count - 1)
    }

    /// Eases to item k, unless a finger holds the row (it settles when the finger lifts) or it
    /// rests there already (an ease to nowhere would only block touches for 0.3 s).
    private func head(to k: Int, at time: Double) {
        unsettled = true
        guard axis.phase != .tracking else { return }
        heading = k
        let target = Double(k) * cell
        // Already there, or already on its way there (a repeated key): do not restart the ease.
        guard axis.destination != target else { return }
        axis.animate(to: target, duration: Self.animationDuration, time: time)
    }

    /// Inserts before "Custom" and centres the new item (not when the row is full).
    private func add(name: String?, at time: Double, events: inout [SceneEvent]) {
        guard items.count < Self.maxItems else { return }
        let c = items.count - 1
        madeCount += 1
        let before = axis.offset(at: time)
        var item = CarouselItem(uid: nextUID, name: name ?? "Item \(madeCount)", icon: .added, slot: c)
        nextUID += 1
        item.appear.set(0, at: time)
        item.appear.animate(to: 1, at: time, duration: Self.animationDuration)
        for i in c..<items.count {
            items[i].slot.animate(to: Double(i + 1), at: time, duration: Self.animationDuration)
        }
        items.insert(item, at: c)
        if c <= selection { selection += 1 }
        axis.edges = Self.edges(count: items.count, frame: frame)
        events.append(SceneEvent(time: time, widget: id, kind: .added(index: c, name: item.name)))
        head(to: c, at: time)
        played(at: time, from: before)
    }

    /// Removes item k (never "Custom"): it rises and fades, the rest close the gap, and the
    /// row keeps heading for the same item (or the one that takes the place of the deleted one).
    private func delete(_ k: Int, at time: Double, events: inout [SceneEvent]) {
        guard k >= 0, k < items.count - 1 else { return }
        let target = headingIndex
        let before = axis.offset(at: time)
        let removed = items.remove(at: k)
        if k < selection { selection -= 1 }
        // A burst of deletes must not grow what every frame draws without bound.
        if leaving.count >= Self.maxItems { leaving.removeFirst() }
        leaving.append(LeavingItem(item: removed, slot: removed.slot.value(at: time), start: time))
        for i in k..<items.count {
            items[i].slot.animate(to: Double(i), at: time, duration: Self.animationDuration)
        }
        axis.edges = Self.edges(count: items.count, frame: frame)
        events.append(SceneEvent(time: time, widget: id, kind: .deleted(index: k, name: removed.name)))
        head(to: k < target ? target - 1 : min(target, items.count - 1), at: time)
        played(at: time, from: before)
    }

    /// Keeps what the drawing of the change made at `time` plays (the row was at `before`).
    private func played(at time: Double, from before: Double) {
        func running(_ value: AnimatedValue) -> CarouselChange.Ease? {
            value.ease(at: time).map { CarouselChange.Ease(ease: $0.simulation, start: $0.start) }
        }
        var slides: [Int: CarouselChange.Ease] = [:], grows: [Int: CarouselChange.Ease] = [:]
        for item in items {
            slides[item.uid] = running(item.slot)
            grows[item.uid] = running(item.appear)
        }
        change = CarouselChange(
            time: time, offset: before, ends: axis.phase == .snapping ? axis.destination : nil,
            leaving: leaving.filter { time < $0.start + Self.animationDuration }, slides: slides, grows: grows)
    }

    // MARK: time

    public func advance(to time: Double, events: inout [SceneEvent]) {
        now = time
        axis.advance(to: time)
        update(at: time, events: &events)
    }

    /// Drops finished animations and settles the selection once nothing moves.
    private func update(at time: Double, events: inout [SceneEvent]) {
        // Read before finished animations are dropped: it may be when the selection settled.
        let lastEnd = animationEnd
        leaving.removeAll { time >= $0.start + Self.animationDuration }
        for i in items.indices {
            items[i].slot.discard(before: time)
            items[i].appear.discard(before: time)
        }
        guard unsettled, axis.phase == .idle, time >= lastEnd else { return }
        unsettled = false
        heading = nil
        let index = nearestIndex(to: axis.offset(at: time))
        selection = index
        guard reportedIndex != index || selected.uid != items[index].uid else { return }
        selected = (items[index].uid, items[index].name)
        reportedIndex = index
        // The exact time it settled: the later of the rest and the last animation's end.
        let settled = min(time, max(axis.restTime ?? time, lastEnd))
        events.append(SceneEvent(time: settled, widget: id, kind: .selected(index: index, name: items[index].name)))
    }

    // MARK: semantics and drawing

    /// Options sit where they will rest (around the item it is heading for, or will land on;
    /// the selection while a finger drags), so a glide does not resend semantics every frame.
    public var semantics: Semantics {
        let x = Double(axis.phase == .tracking ? selection : headingIndex) * cell
        return Semantics(
            id: id, role: "listbox", label: "Items", frame: frame, valueText: selectedName,
            options: items.enumerated().map { i, item in
                let left = frame.minX + cell * Double(i + 2) - x
                return SemanticOption(
                    id: "\(id).\(item.uid)", label: item.name, selected: item.uid == selected.uid,
                    frame: Rect(x: left, y: frame.minY, width: cell, height: frame.height))
            })
    }
}
