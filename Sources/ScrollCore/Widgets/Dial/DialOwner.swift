/// A widget built on a `Dial` (the ruler, the picker): the dial takes its pointer, wheel, keys
/// and time, so such a widget only configures its dial, draws and describes itself.
public protocol DialOwner: Widget {
    var dial: Dial { get }
}

extension DialOwner {
    /// Content offset under the centre as of the latest call.
    public var contentOffset: Double { dial.contentOffset }

    /// Its content offset, unbroken by the ruler's shifts by whole periods (`TickDial.shifted`),
    /// and its velocity.
    public var motionReading: MotionReading? {
        var reading = MotionReading(offsetOf: dial.ticks.axis, at: dial.now)
        reading.position -= dial.ticks.shifted
        return reading
    }

    public func pointer(_ input: PointerInput, at time: Double, events: inout [SceneEvent]) -> Bool {
        dial.pointer(input, at: time, events: &events)
        return true
    }

    /// A departed holder lets go as a finger would: the dial flings on and snaps.
    public func release(_ lift: PointerInput, at time: Double, events: inout [SceneEvent]) {
        dial.pointer(lift, at: time, events: &events)
    }

    /// A page is the widget's width (one screenful of ticks), on either axis.
    public func wheel(_ input: WheelInput, at time: Double, events: inout [SceneEvent]) {
        dial.wheel(input, page: frame.width, at: time, events: &events)
    }

    public var keys: [String] { KeyStep.keys }

    /// A finger down on a gliding dial catches it (ScrollAxis: tracking from where it is).
    public var catchesGlides: Bool { true }

    public func key(_ key: String, at time: Double, events: inout [SceneEvent]) -> Bool {
        dial.key(key, at: time, events: &events)
    }

    public func advance(to time: Double, events: inout [SceneEvent]) {
        dial.advance(to: time, events: &events)
    }
}
