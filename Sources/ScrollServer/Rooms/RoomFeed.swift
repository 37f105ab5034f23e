import ScrollCore

/// What a client's queue reads from its room when it may write: `Room`, or a fake in tests.
package protocol RoomFeed: AnyObject {
    /// Grows whenever the semantics change.
    var semanticsVersion: Int { get }
    var semantics: SharedPayload { get }
    /// What changed from `semanticsVersion − 1` to `semanticsVersion`, when that is shorter than
    /// `semantics` (nil: there is none; a client that has the version before gets `semantics`).
    var semanticsPatch: SharedPayload? { get }
    /// Grows whenever someone joins or leaves.
    var presenceVersion: Int { get }
    var presenceMessage: SharedPayload { get }
    /// The latest frame (rendered on demand).
    func frame(theme: Theme) -> SharedFrame
}
