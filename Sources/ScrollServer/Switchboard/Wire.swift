/// What the switchboard needs from the transport (the lws bridge, or a fake in tests).
package protocol Wire: AnyObject {
    /// `client` has something to send: call back when its socket can take a write.
    func requestWrite(_ client: UInt64)
    /// Call `Switchboard.tick()` once `seconds` have passed.
    func requestTick(after seconds: Double)
    /// Call `Switchboard.sweep()` once `seconds` have passed.
    func requestSweep(after seconds: Double)
    /// Call `Switchboard.leaseTick()` once `seconds` have passed (a cluster node; replaces the one set).
    func requestLeaseTick(after seconds: Double)
}
