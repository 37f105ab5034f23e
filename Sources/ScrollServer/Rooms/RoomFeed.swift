import ScrollCore

/// What a client's queue reads from its room when it may write: `Room`, or a fake in tests.
package protocol RoomFeed: AnyObject {
    /// Grows whenever the semantics change.
    var semanticsVersion: Int { get }
    var semantics: SharedPayload { get }
    /// Grows whenever someone joins or leaves.
    var presenceVersion: Int { get }
    var presenceMessage: SharedPayload { get }
    /// The latest frame (rendered on demand).
    func frame(theme: Theme) -> SharedFrame
}
