/// The carousel (WIDGETS.md §3, seed 004): a row of items, five cells visible, the centred one
/// largest; it glides fast, always comes to rest centred on an item, and items are tapped to
/// the centre, added (tap "Custom") and deleted (swipe up), all animated.
public final class Carousel: Widget {
    /// Every timed animation here (snap, tap, add, delete), as UIKit's animated scrolls.
    public static let animationDuration = 0.3
    public static let customName = "Custom"
    /// A bound on what add can grow the row to (the protocol must not grow memory for ever).
    public static let maxItems = 50

    public let id: String
    public let frame: Rect
    var items: [CarouselItem]
    var leaving: [LeavingItem] = []
    var axis: ScrollAxis
    /// Scene time of the latest call (drawing reads animations at it).
    private(set) var now = 0.0

    private var pointer: PointerKey?
    private var gesture: PointerGesture?
    /// The down stopped a glide: that touch is not a tap.
    private var caught = false
    /// The index it is animating to, once known (tap, key, action, add, delete).
    private var heading: Int?
    private var madeCount: Int
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
        let w = frame.width / 5
        axis = ScrollAxis(
            offset: 2 * w, edges: .rubberBand(min: 0, max: w * Double(items.count - 1), dimension: frame.width),
            snap: SnapRule(step: w, mode: .afterRest, settleDuration: Self.animationDuration), rate: .fast)
    }

    /// Five cells across the frame.
    public var cell: Double { frame.width / 5 }
    public var count: Int { items.count }
    public var names: [String] { items.map(\.name) }
    public var selectedName: String { selected.name }
    public var contentOffset: Double { axis.offset(at: now) }

    private var edges: AxisEdges {
        .rubberBand(min: 0, max: cell * Double(items.count - 1), dimension: frame.width)
    }

    /// When the last item animation ends (−∞ when none ran).
    private var animationEnd: Double {
        max(
            items.map(\.animationEnd).max() ?? -.infinity,
            leaving.map { $0.start + Self.animationDuration }.max() ?? -.infinity)
    }

    public var isAnimating: Bool { axis.isMoving || now < animationEnd || (unsettled && axis.phase == .idle) }

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
            // WIDGETS.md §3: a touch is ignored while the carousel animates to a target.
            guard axis.phase != .snapping else {
                if input.key == pointer { release(at: time) }
                return true
            }
            pointer = input.key
            heading = nil
            gesture = PointerGesture(at: input.position, time: input.clientTime)
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
                axis.touchCancel(time: time)
                if let k = item(at: g.start), k != items.count - 1 { delete(k, at: time, events: &events) }
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
                if case .tap = recognition, !caught { tap(at: g.start, time: time, events: &events) }
            }
        }
        unsettled = true
        update(at: time, events: &events)
        return true
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

    private func release(at time: Double) {
        pointer = nil
        gesture = nil
        axis.touchCancel(time: time)
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

    private func tap(at point: Point, time: Double, events: inout [SceneEvent]) {
        guard let k = item(at: point) else { return }
        if k == items.count - 1 {
            _ = add(name: nil, at: time, events: &events)
        } else {
            head(to: k, at: time)
        }
    }

    // MARK: keys and actions

    public var keys: [String] {
        ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "Home", "End", "Delete", "Backspace"]
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
            if selection != items.count - 1 { delete(selection, at: time, events: &events) }
        default: return false
        }
        update(at: time, events: &events)
        return true
    }

    public var actions: [String] { ["select", "add", "delete"] }

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
        case "add": _ = add(name: try addedName(action), at: time, events: &events)
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
        return try action.argument("name", .string(length: 1...32), on: id)
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
    private var headingIndex: Int {
        heading ?? min(max(Int(((axis.destination ?? contentOffset) / cell).rounded()), 0), items.count - 1)
    }

    /// Eases to item k, unless a finger holds the row (it settles when the finger lifts) or it
    /// rests there already (an ease to nowhere would only block touches for 0.3 s).
    private func head(to k: Int, at time: Double) {
        heading = k
        unsettled = true
        let target = Double(k) * cell
        guard axis.phase != .tracking, !(axis.phase == .idle && axis.offset(at: time) == target) else { return }
        axis.animate(to: target, duration: Self.animationDuration, time: time)
    }

    /// Inserts before "Custom" and centres the new item; nil when the row is full.
    private func add(name: String?, at time: Double, events: inout [SceneEvent]) -> Int? {
        guard items.count < Self.maxItems else { return nil }
        let c = items.count - 1
        madeCount += 1
        var item = CarouselItem(uid: nextUID, name: name ?? "Item \(madeCount)", icon: .added, slot: c)
        nextUID += 1
        item.appear.set(0, at: time)
        item.appear.animate(to: 1, at: time, duration: Self.animationDuration)
        for i in c..<items.count {
            items[i].slot.animate(to: Double(i + 1), at: time, duration: Self.animationDuration)
        }
        items.insert(item, at: c)
        if c <= selection { selection += 1 }
        axis.edges = edges
        events.append(SceneEvent(time: time, widget: id, kind: .added(index: c, name: item.name)))
        head(to: c, at: time)
        return c
    }

    /// Removes item k (never "Custom"): it rises and fades, the rest close the gap, and the
    /// row keeps heading for the same item (or the one that takes the place of the deleted one).
    private func delete(_ k: Int, at time: Double, events: inout [SceneEvent]) {
        guard k >= 0, k < items.count - 1 else { return }
        let target = headingIndex
        let removed = items.remove(at: k)
        if k < selection { selection -= 1 } else if k == selection { selection = min(selection, items.count - 1) }
        leaving.append(LeavingItem(item: removed, slot: removed.slot.value(at: time), start: time))
        for i in k..<items.count {
            items[i].slot.animate(to: Double(i), at: time, duration: Self.animationDuration)
        }
        axis.edges = edges
        events.append(SceneEvent(time: time, widget: id, kind: .deleted(index: k, name: removed.name)))
        head(to: k < target ? target - 1 : min(target, items.count - 1), at: time)
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
        let index = min(max(Int((axis.offset(at: time) / cell).rounded()), 0), items.count - 1)
        selection = index
        guard reportedIndex != index || selected.uid != items[index].uid else { return }
        selected = (items[index].uid, items[index].name)
        reportedIndex = index
        // The exact time it settled: the later of the rest and the last animation's end.
        let settled = min(time, max(axis.restTime ?? time, lastEnd))
        events.append(SceneEvent(time: settled, widget: id, kind: .selected(index: index, name: items[index].name)))
    }

    // MARK: semantics and drawing

    /// Options sit where they will rest (around the item it is heading for, else the
    /// selection), so a glide does not resend semantics every frame.
    public var semantics: Semantics {
        let x = Double(heading ?? selection) * cell
        return Semantics(
            id: id, role: "listbox", label: "Items", frame: frame, valueText: selectedName,
            options: items.enumerated().map { i, item in
                let left = frame.minX + cell * Double(i + 2) - x
                return SemanticOption(
                    id: "\(id).\(item.uid)", label: item.name, selected: item.uid == selected.uid,
                    frame: Rect(x: left, y: frame.minY, width: cell, height: frame.height))
            })
    }

    public func render(into list: inout DisplayList, theme: Theme) {
        let x = contentOffset
        list.save()
        list.clip(frame)
        for gone in leaving {
            let progress = min(max((now - gone.start) / Self.animationDuration, 0), 1)
            list.setAlpha(1 - progress)
            draw(
                gone.item, slot: gone.slot, size: Self.scale(slot: gone.slot, offset: x, cell: cell),
                lift: progress * frame.height / 2, offset: x, into: &list, theme: theme)
        }
        list.setAlpha(1)
        for item in items {
            let slot = item.slot.value(at: now)
            let size = Self.scale(slot: slot, offset: x, cell: cell) * item.appear.value(at: now)
            draw(item, slot: slot, size: size, lift: 0, offset: x, into: &list, theme: theme)
        }
        list.restore()
    }

    /// One item's tile (the seed's (w − 10) square icon, scaled about the cell's centre) and name.
    private func draw(
        _ item: CarouselItem, slot: Double, size scale: Double, lift: Double, offset x: Double,
        into list: inout DisplayList, theme: Theme
    ) {
        guard scale > 0.01 else { return }
        let side = (cell - 10) * scale
        let centre = Point(
            x: frame.minX + cell * (slot + 2) - x + cell / 2, y: frame.midY - 10 - lift)
        guard centre.x + side / 2 >= frame.minX, centre.x - side / 2 <= frame.maxX else { return }
        list.setFill(item.icon.tile)
        list.fillRoundRect(
            Rect(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side), radius: side * 0.22)
        item.icon.drawGlyph(into: &list, centre: centre, size: side)
        list.setFill(theme.secondaryText)
        list.text(
            item.name, x: centre.x, y: centre.y + side / 2 + 6, size: 12, align: .center, baseline: .top)
    }
}
