/// A motion in closed form, like Flutter's physics library: the state at any
/// time is computed directly, never integrated tick by tick, so sampling it at
/// 30, 60 or 240 Hz gives the same positions. `t` is seconds since its start.
public protocol Simulation: Sendable {
    func position(at t: Double) -> Double
    func velocity(at t: Double) -> Double
    func isDone(at t: Double) -> Bool
    /// The first `t` at which `isDone(at:)` holds; the owner switches state
    /// exactly then, not at whichever tick happens to notice it.
    var doneTime: Double { get }
    /// Where the motion is assigned to end once done (no float residue).
    var finalPosition: Double { get }
    /// The `t`s before `doneTime` at which it jumps or turns a corner (a track's fit cuts there);
    /// none for a smooth motion.
    var breaks: [Double] { get }
    /// The same motion with its jumps by whole turns taken out (a roller's column turning, see
    /// `AnimatedValue.unrolled`); itself for a motion that does not wrap.
    var unrolled: any Simulation { get }
}

extension Simulation {
    public func isDone(at t: Double) -> Bool { t >= doneTime }
    public var breaks: [Double] { [] }
    public var unrolled: any Simulation { self }
}
