/// The infinite weight ruler (WIDGETS.md §1): drag under a fixed centre pointer,
/// labels 9…999 wrapping, rests exactly on a tick, reports the value.
public final class WeightRuler: Widget {
    public let id: String
    public let frame: Rect
    /// Value changes while moving are reported at most this often (scene time, s).
    public static let reportInterval = 0.016
    /// Each key and the ticks it moves (docs/PROTOCOL.md, `key`): `keys` and `key(_:)` both
    /// read this table, so they cannot disagree.
    public static let keySteps: [(key: String, ticks: Int)] = [
        ("ArrowLeft", -1), ("ArrowDown", -1), ("ArrowRight", 1), ("ArrowUp", 1), ("PageDown", -10), ("PageUp", 10),
    ]
    /// `setValue`'s value: any value the labels name, 8.5 … 999.4 kg, and past 999.4 the
    /// wrap onto 8.5 … 8.9 (WIDGETS.md §1), so 999.5 … 999.9 land there.
    public static let settableValue = FieldRule<Double, Double>.number(
        in: Double(RulerScale.firstTick) / 10...Double(RulerScale.maxLabel * 10 + 9) / 10)

    private var axis: ScrollAxis
    private var offset: Double
    private var activePointer: PointerKey?
    private var reportedTick: Int
    private var lastReport: Double = -.infinity
    private var finalPending = false
    /// When the gesture (or key / wheel step) that will end in a final value began settling.
    private var settleStart = 0.0

    public init(id: String = "ruler", frame: Rect, value: Double = 72.5) {
        self.id = id
        self.frame = frame
        offset = RulerScale.offset(forValue: value)
        axis = ScrollAxis(
            offset: offset, edges: .none,
            snap: SnapRule(step: RulerScale.tickSpacing, mode: .projected, settleDuration: 0.2),
            rate: .normal)
        reportedTick = RulerScale.tick(containing: offset)
    }

    /// Content coordinate under the centre pointer (unbounded between rests).
    public var contentOffset: Double { offset }
    public var tenths: Int { RulerScale.wrappedTenths(RulerScale.tick(containing: offset)) }
    public var value: Double { Double(tenths) / 10 }
    public var valueText: String { RulerScale.text(tenths: tenths) }
    public var isAnimating: Bool { axis.isMoving }

    public var semantics: Semantics {
        Semantics(
            id: id, role: "slider", label: "Weight", frame: frame, valueNow: value,
            valueMin: Double(RulerScale.firstTick) / 10,
            valueMax: Double(RulerScale.firstTick + RulerScale.tickCount - 1) / 10,
            valueText: valueText)
    }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool {
        switch input.phase {
        case .down:
            // The newest finger takes over (several clients may share the ruler).
            activePointer = input.key
            axis.touchDown(at: input.position.x, clientTime: input.clientTime, time: time)
            finalPending = false
        case .move:
            guard input.key == activePointer else { return true }
            axis.touchMove(to: input.position.x, clientTime: input.clientTime, time: time)
        case .up, .cancel:
            guard input.key == activePointer else { return true }
            activePointer = nil
            if input.phase == .up {
                axis.touchUp(clientTime: input.clientTime, time: time)
            } else {
                axis.touchCancel(time: time)
            }
            finalPending = true
            settleStart = time
        }
        update(time: time, events: &events)
        return true
    }

    public func wheel(_ input: WheelInput, at time: Double, events: inout [SceneEvent]) {
        guard activePointer == nil else { return }
        // A page is the ruler's width (one screenful of ticks) on either axis: a vertical
        // wheel turns the ruler too, down = heavier, like dragging left.
        let (dx, dy) = input.points(page: frame.width)
        let delta = abs(dx) >= abs(dy) ? dx : dy
        axis.scroll(by: delta, time: time)
        finalPending = true
        settleStart = time
        update(time: time, events: &events)
    }

    public var keys: [String] { Self.keySteps.map(\.key) }

    public func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool {
        guard let ticks = Self.keySteps.first(where: { $0.key == key })?.ticks else { return false }
        guard activePointer == nil else { return true }
        step(by: ticks, at: time, events: &events)
        return true
    }

    public var actions: [String] { ["setValue"] }

    public func check(_ action: ActionInput) throws(ActionError) {
        _ = try targetTenths(action)
    }

    /// `setValue {"value": kg}`: animates like a key step to the tick of that value (rounded
    /// to 0.1), the short way round the wrap, and reports the final value at rest. A finger
    /// on the ruler wins, as for keys: the action is then ignored.
    public func perform(_ action: ActionInput, at time: Double, events: inout [SceneEvent]) throws(ActionError) {
        let target = try targetTenths(action)
        guard activePointer == nil else { return }
        let ahead = RulerScale.mod(
            target - RulerScale.wrappedTenths(RulerScale.tick(containing: axis.offset(at: time))),
            RulerScale.tickCount)
        step(by: ahead <= RulerScale.tickCount / 2 ? ahead : ahead - RulerScale.tickCount, at: time, events: &events)
    }

    private func targetTenths(_ action: ActionInput) throws(ActionError) -> Int {
        let value = try action.argument("value", Self.settableValue, on: id)
        return RulerScale.wrappedTenths(Int((value * 10).rounded()))
    }

    /// Animates from the tick under the centre by `ticks` (0.2 s), then a final value.
    private func step(by ticks: Int, at time: Double, events: inout [SceneEvent]) {
        let here = RulerScale.tick(containing: axis.offset(at: time))
        axis.animate(to: Double(here + ticks) * RulerScale.tickSpacing, duration: 0.2, time: time)
        finalPending = true
        settleStart = time
        update(time: time, events: &events)
    }

    public func advance(to time: Double, events: inout [SceneEvent]) {
        axis.advance(to: time)
        update(time: time, events: &events)
    }

    private func update(time: Double, events: inout [SceneEvent]) {
        offset = axis.offset(at: time)
        let tick = RulerScale.tick(containing: offset)
        if finalPending && axis.phase == .idle {
            finalPending = false
            reportedTick = tick
            // Stamp the exact rest time, not the tick that noticed it: events then do not
            // depend on the frame rate.
            let restTime = min(time, max(settleStart, axis.restTime ?? time))
            lastReport = restTime
            events.append(SceneEvent(time: restTime, widget: id, kind: .value(value, text: valueText, final: true)))
            renormalise()
        } else if tick != reportedTick && time - lastReport >= Self.reportInterval {
            reportedTick = tick
            lastReport = time
            events.append(SceneEvent(time: time, widget: id, kind: .value(value, text: valueText, final: false)))
        }
    }

    /// At rest the offset is a whole tick, so shifting by whole periods is exact and keeps
    /// numbers small however far one scrolls.
    private func renormalise() {
        let turns = (offset / RulerScale.period).rounded(.towardZero)
        guard turns != 0 else { return }
        let shift = -turns * RulerScale.period
        axis.rebase(by: shift)
        offset += shift
        reportedTick = RulerScale.tick(containing: offset)
    }

    // MARK: drawing (seed geometry: major tick to 0.46875·H, minor to 0.3125·H, label 4 pt below)

    public func render(into list: inout DisplayList, theme: Theme) {
        let h = frame.height, centre = frame.midX
        let left = offset - frame.width / 2, right = offset + frame.width / 2
        list.save()
        list.clip(frame)
        list.setFill(theme.surface)
        list.fillRect(frame)
        let first = Int(((left - 20) / RulerScale.tickSpacing).rounded(.up))
        let last = Int(((right + 20) / RulerScale.tickSpacing).rounded(.down))
        func screenX(_ n: Int) -> Double { centre + Double(n) * RulerScale.tickSpacing - offset }

        list.setStroke(theme.tick, width: 1)
        for n in first...last where RulerScale.mod(n, RulerScale.ticksPerBlock) != 0 {
            let x = screenX(n)
            if x < frame.minX - 1 || x > frame.maxX + 1 { continue }
            list.line(x, frame.minY, x, frame.minY + 0.3125 * h)
        }
        list.setStroke(theme.tick, width: 2)
        list.setFill(theme.text)
        for n in first...last where RulerScale.mod(n, RulerScale.ticksPerBlock) == 0 {
            let x = screenX(n)
            list.line(x, frame.minY, x, frame.minY + 0.46875 * h)
            let label = RulerScale.label(ofBlock: n / RulerScale.ticksPerBlock)
            list.text(
                String(label), x: x, y: frame.minY + 0.46875 * h + 4, size: 17,
                align: .center, baseline: .top)
        }
        // Fixed centre pointer.
        list.setFill(theme.accent)
        list.fillRect(Rect(x: centre - 1.5, y: frame.minY, width: 3, height: 0.6 * h))
        list.fillPolygon([
            Point(x: centre - 8, y: frame.minY), Point(x: centre + 8, y: frame.minY),
            Point(x: centre, y: frame.minY + 10),
        ])
        list.restore()
    }
}
