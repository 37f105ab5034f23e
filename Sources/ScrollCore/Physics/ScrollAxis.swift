/// The path a moving axis takes if no input comes (`ScrollAxis.plannedPath(from:)`).
public struct AxisPath: Sendable {
    /// Scene times at which one motion hands over to the next.
    public var breaks: [Double]
    /// Scene time at which it comes to rest.
    public var end: Double
    /// The motions it runs, in order, and where it rests.
    let spans: [AxisSpan]
    let rest: Double

    /// The offset the axis shows at scene time `time` on this path (from its start on), as
    /// `ScrollAxis.offset(at:)` would, without running the axis there again: a track's fit asks
    /// for hundreds.
    public func offset(at time: Double) -> Double {
        for span in spans where span.motion != nil && time < span.end { return span.offset(at: time) }
        return rest
    }

    /// The same path exactly as eased moves (`Track.Keyframe`, x the offset), from the start of
    /// its first motion, when every motion is an ease no hard edge clamps (a key's step, a tap's
    /// centring, a wheel's settle after its wait); nil else (a fling, a bounce: fitted instead).
    public var keyframes: [Track.Keyframe]? {
        var frames = Track.Keyframes()
        for span in spans {
            guard let m = span.motion else { continue }
            guard let ease = m.motion.simulation as? EaseSimulation, span.end == m.end,
                (0...1).contains(ease.curve.y1), (0...1).contains(ease.curve.y2)
            else { return nil }
            let (a, b) = (m.position(at: m.start), m.position(at: m.end))
            // Between its ends (a curve whose y stays in 0…1): clamped nowhere if not at its ends.
            guard span.edges.limit(a) == a, span.edges.limit(b) == b,
                frames.move(from: Point(x: a, y: 0), at: m.start, to: Point(x: b, y: 0), at: m.end, curve: ease.curve)
            else { return nil }
        }
        guard !frames.frames.isEmpty else { return nil }
        // Where it rests, if a hand-over jumps there.
        frames.rest(at: Point(x: rest, y: 0))
        return frames.frames
    }
}

/// One scroll axis: idle → tracking → decelerating / bouncing / snapping → idle.
/// `offset` is a content offset: moving the pointer by +d moves the offset by −d.
/// Times: `time` is scene time in seconds; `clientTime` is the client's own
/// timestamp for the sample, in seconds (used only for velocity).
///
/// Every event first advances the axis to its `time`, and every motion is a
/// closed-form simulation whose end time is known when it starts, so the
/// offset is a pure function of the inputs, not of how often it is ticked.
public struct ScrollAxis: Sendable {
    /// After the latest wheel event, wait this long (s) before settling onto a
    /// snap point: wheels and trackpads send bursts, and settling between two
    /// events of one gesture would fight the user.
    public static let wheelSettleDelay = 0.15

    // Another edge, snap or rate changes where a moving axis goes: a new path.
    public var edges: AxisEdges { didSet { revision &+= 1 } }
    public var snap: SnapRule? { didSet { revision &+= 1 } }
    public var rate: DecelerationRate { didSet { revision &+= 1 } }
    public private(set) var phase: AxisPhase = .idle
    /// Scene time at which the axis last came to rest, exactly as computed from
    /// the simulation (not the tick that noticed it); nil until it first does.
    public private(set) var restTime: Double?
    /// Grows whenever input changes where the axis is going (a touch, a wheel, an animation, a
    /// rebase): while it stays the same, the axis follows one undisturbed path.
    public private(set) var revision = 0
    /// The offset at which the current path began (right after the input that set it).
    public private(set) var pathStart: Double
    /// The offset at the latest touch down, while the path is that touch's (held, then its
    /// fling or snap); nil after a wheel or an animation.
    public private(set) var touchStart: Double?

    /// The offset while no simulation runs (idle or tracking).
    private var restOffset: Double
    private var motion: AxisMotion?
    private var wheelSettleTime: Double?
    private var drag = Drag()

    private struct Drag: Sendable {
        /// The offset the finger asks for, before rubber band or clamping.
        var raw = 0.0
        var pointer = 0.0
        var tracker = VelocityTracker()
    }

    public init(offset: Double, edges: AxisEdges = .none, snap: SnapRule? = nil, rate: DecelerationRate = .normal) {
        self.restOffset = offset
        pathStart = offset
        self.edges = edges
        self.snap = snap
        self.rate = rate
    }

    /// True while time alone changes the offset, or a wheel settle is pending
    /// (the owner must keep ticking).
    public var isMoving: Bool { motion != nil || wheelSettleTime != nil }

    public func offset(at time: Double) -> Double {
        var axis = self
        axis.advance(to: time)
        return axis.currentOffset(at: time)
    }

    /// Velocity of the offset (pt/s); 0 unless a simulation runs.
    public func velocity(at time: Double) -> Double {
        var axis = self
        axis.advance(to: time)
        return axis.motion?.velocity(at: time) ?? 0
    }

    /// While a finger tracks: the velocity of the offset (pt/s) it would be released with if it
    /// lifted at its latest sample (the content moves against the finger); nil otherwise.
    public var trackedVelocity: Double? { phase == .tracking ? -drag.tracker.newestVelocity : nil }

    /// Where the axis will come to rest if nothing else happens: known from the running motion
    /// (a glide's snap point, a bounce's edge), nil while a finger tracks.
    public var destination: Double? {
        if phase == .tracking { return nil }
        guard let motion else { return wheelSettleTime == nil ? restOffset : snapTarget(restOffset) }
        switch motion.next {
        case .rest(let x): return x
        case .settle(let x): return snapTarget(x)
        case let .bounce(_, _, target): return target
        }
    }

    /// Returns true when it caught a moving axis (such a touch is not a tap).
    /// A pending wheel settle is cancelled but is not a catch: nothing moves.
    @discardableResult
    public mutating func touchDown(at position: Double, clientTime: Double, time: Double) -> Bool {
        advance(to: time)
        let caught = motion != nil
        restOffset = currentOffset(at: time)
        motion = nil
        wheelSettleTime = nil
        phase = .tracking
        drag = Drag(raw: rawOffset(showing: restOffset), pointer: position)
        drag.tracker.add(time: clientTime, position: position)
        changed(at: time)
        touchStart = restOffset
        return caught
    }

    public mutating func touchMove(to position: Double, clientTime: Double, time: Double) {
        guard phase == .tracking else { return }
        drag.tracker.add(time: clientTime, position: position)
        drag.raw = edges.limit(drag.raw - (position - drag.pointer))
        drag.pointer = position
        restOffset = shown(raw: drag.raw)
        changed(at: time)
    }

    public mutating func touchUp(clientTime: Double, time: Double) {
        guard phase == .tracking else { return }
        // The content moves against the pointer.
        release(velocity: -drag.tracker.velocity(liftTime: clientTime), time: time)
        changed(at: time)
    }

    public mutating func touchCancel(time: Double) {
        guard phase == .tracking else { return }
        release(velocity: 0, time: time)
        changed(at: time)
    }

    /// Mouse wheel / trackpad: jumps by `delta` at once, clamped to the range
    /// (no rubber band: there is no finger to pull against). With a snap rule
    /// the settle starts `wheelSettleDelay` after the latest event. Ignored
    /// while a finger tracks, since the finger owns the axis.
    public mutating func scroll(by delta: Double, time: Double) {
        advance(to: time)
        guard phase != .tracking else { return }
        let x = edges.clamp(currentOffset(at: time) + delta)
        motion = nil
        if snap == nil {
            comeToRest(at: x, time: time)
        } else {
            // Already .snapping while the settle waits, so .idle always means at rest.
            restOffset = x
            phase = .snapping
            wheelSettleTime = time + Self.wheelSettleDelay
        }
        changed(at: time)
        touchStart = nil
    }

    /// Eases from the current offset to `target` (keyboard steps, tap-to-centre).
    public mutating func animate(to target: Double, duration: Double, time: Double) {
        advance(to: time)
        wheelSettleTime = nil
        let from = currentOffset(at: time)
        run(.snapping, EaseSimulation(from: from, to: target, duration: duration), time: time, next: .rest(target))
        advance(to: time)
        changed(at: time)
        touchStart = nil
    }

    /// Runs every hand-over due by `time`, each at its own exact time, so one
    /// call may chain several (fling → bounce → rest).
    public mutating func advance(to time: Double) {
        advance(to: time) { _ in }
    }

    /// `advance(to:)`, showing `visit` the path the offset took on the way, in order:
    /// each motion that ran (up to its end or `time`) and each jump at a hand-over.
    public mutating func advance(to time: Double, visiting visit: (AxisSpan) -> Void) {
        while true {
            if let motion, time >= motion.end {
                visit(AxisSpan(motion: motion, edges: edges, end: motion.end, endOffset: currentOffset(at: motion.end)))
                self.motion = nil
                follow(motion.next, at: motion.end)
                visit(AxisSpan(motion: nil, edges: edges, end: motion.end, endOffset: currentOffset(at: motion.end)))
            } else if motion == nil, let due = wheelSettleTime, time >= due {
                wheelSettleTime = nil
                settle(at: restOffset, time: due)
            } else {
                if let motion {
                    visit(AxisSpan(motion: motion, edges: edges, end: time, endOffset: currentOffset(at: time)))
                }
                return
            }
        }
    }

    /// Shifts the coordinate system by `delta` (infinite content renormalising):
    /// offsets, edges, snap points and the running motion move together, so
    /// nothing on screen changes.
    public mutating func rebase(by delta: Double) {
        restOffset += delta
        drag.raw += delta
        motion?.rebase(by: delta)
        edges = edges.shifted(by: delta)
        snap = snap?.shifted(by: delta)
        pathStart += delta
        touchStart = touchStart.map { $0 + delta }
        revision &+= 1
    }

    /// Where the offset goes from `time` if no input comes: when it comes to rest and the times
    /// at which one motion hands over to the next (its velocity may jump there). Nil while a
    /// finger tracks or at rest.
    public func plannedPath(from time: Double) -> AxisPath? {
        guard phase != .tracking, isMoving else { return nil }
        var axis = self
        axis.advance(to: time)
        // A wheel's settle starts after a wait: the offset stands still until then.
        var breaks = axis.wheelSettleTime.map { [$0] } ?? []
        var spans: [AxisSpan] = []
        axis.advance(to: .infinity) { span in
            spans.append(span)
            if span.motion == nil { breaks.append(span.end) }
        }
        // A motion that never ends (not one of ours) has no path to send.
        guard !axis.isMoving, let end = axis.restTime, end.isFinite else { return nil }
        return AxisPath(
            breaks: breaks.filter { $0 > time && $0 < end }, end: max(end, time), spans: spans,
            rest: axis.currentOffset(at: end))
    }

    private mutating func changed(at time: Double) {
        revision &+= 1
        pathStart = currentOffset(at: time)
    }

    // MARK: - Transitions

    private func currentOffset(at time: Double) -> Double {
        guard let motion else { return restOffset }
        return edges.limit(motion.position(at: time))
    }

    private mutating func release(velocity raw: Double, time: Double) {
        let velocity = raw.isFinite ? raw : 0
        let x = restOffset
        if case let .rubberBand(lo, hi, _) = edges, x < lo || x > hi {
            let target = snapTarget(x < lo ? lo : hi)
            run(.bouncing, SpringSimulation(from: x, velocity: velocity, to: target), time: time, next: .rest(target))
        } else if velocity != 0 {
            fling(from: x, velocity: velocity, time: time)
        } else {
            settle(at: x, time: time)
        }
        advance(to: time)
    }

    private mutating func fling(from x: Double, velocity: Double, time: Double) {
        let d = rate.perMillisecond
        var fling = DecelerationSimulation(from: x, velocity: velocity, rate: d)
        if let snap, snap.mode == .projected {
            // Retargeted to land exactly on the snap point nearest the projection.
            let target = snap.nearest(to: fling.finalPosition, within: edges)
            fling = DecelerationSimulation(from: x, to: target, rate: d)
        }
        if let edge = edgeCrossed(by: fling), let crossing = fling.time(reaching: edge), crossing < fling.doneTime {
            let next: AxisMotion.Next
            if case .rubberBand = edges {
                next = .bounce(from: edge, velocity: fling.velocity(at: crossing), to: snapTarget(edge))
            } else {
                next = .settle(edge)
            }
            run(.decelerating, fling, time: time, end: time + crossing, next: next)
        } else {
            // A rest within 0.5 pt beyond the edge stops at the edge.
            run(.decelerating, fling, time: time, next: .settle(edges.clamp(fling.finalPosition)))
        }
    }

    private func edgeCrossed(by fling: DecelerationSimulation) -> Double? {
        guard let range = edges.range else { return nil }
        if fling.finalPosition > range.upperBound { return range.upperBound }
        if fling.finalPosition < range.lowerBound { return range.lowerBound }
        return nil
    }

    private mutating func follow(_ next: AxisMotion.Next, at time: Double) {
        switch next {
        case .rest(let x):
            comeToRest(at: x, time: time)
        case .settle(let x):
            settle(at: x, time: time)
        case let .bounce(from, velocity, target):
            run(
                .bouncing, SpringSimulation(from: from, velocity: velocity, to: target), time: time, next: .rest(target)
            )
        }
    }

    /// Without momentum: ease onto the nearest snap point, or stop where it is.
    private mutating func settle(at x: Double, time: Double) {
        let target = snapTarget(x)
        if let snap, target != x {
            run(
                .snapping, EaseSimulation(from: x, to: target, duration: snap.settleDuration), time: time,
                next: .rest(target))
        } else {
            comeToRest(at: x, time: time)
        }
    }

    private mutating func comeToRest(at x: Double, time: Double) {
        restOffset = edges.limit(x)
        phase = .idle
        restTime = time
    }

    private mutating func run(
        _ phase: AxisPhase, _ simulation: any Simulation, time: Double, end: Double? = nil, next: AxisMotion.Next
    ) {
        motion = AxisMotion(phase: phase, motion: TimedMotion(simulation, start: time, end: end), next: next)
        self.phase = phase
    }

    // MARK: - Edges

    private func snapTarget(_ x: Double) -> Double {
        snap?.nearest(to: x, within: edges) ?? x
    }

    /// Past a rubber-band edge the finger is further out than the content.
    private func shown(raw x: Double) -> Double {
        guard case let .rubberBand(lo, hi, d) = edges else { return x }
        if x > hi { return hi + RubberBand.offset(forOvershoot: x - hi, dimension: d) }
        if x < lo { return lo - RubberBand.offset(forOvershoot: lo - x, dimension: d) }
        return x
    }

    /// Inverse of `shown(raw:)`, so catching a bounce resumes the drag from the
    /// overshoot on screen. A spring can carry the content further than the
    /// band ever shows (≥ D); such an overshoot is caught at 0.99·D.
    private func rawOffset(showing x: Double) -> Double {
        guard case let .rubberBand(lo, hi, d) = edges else { return x }
        if x > hi { return hi + RubberBand.overshoot(forOffset: min(x - hi, 0.99 * d), dimension: d) }
        if x < lo { return lo - RubberBand.overshoot(forOffset: min(lo - x, 0.99 * d), dimension: d) }
        return x
    }
}
