/// What a dial tells its widget, in time order.
enum DialEvent: Sendable, Equatable {
    /// A new tick came under the centre at exactly this time.
    case crossed(tick: Int, at: Double)
    /// Report this tick's value (ValueReporter).
    case report(tick: Int, at: Double, final: Bool)
}
