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
    /// `breaks` when there are at most `n`, else nil: a motion with more corners than a track can
    /// hold need not list them (a roller's column may turn millions of times).
    func breaks(atMost n: Int) -> [Double]?
}

extension Simulation {
    public func isDone(at t: Double) -> Bool { t >= doneTime }
    public var breaks: [Double] { [] }
    public func breaks(atMost n: Int) -> [Double]? {
        let all = breaks
        return all.count <= n ? all : nil
    }
}
