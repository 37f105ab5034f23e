import ScrollCore

extension ClientMessage {
    /// The message as its `encoded()` text reads back (only action arguments can hold a number
    /// the field rules did not check).
    public var asWritten: ClientMessage {
        guard case .action(var a) = self else { return self }
        a.args = a.args.mapValues(\.asWritten)
        return .action(a)
    }
}
