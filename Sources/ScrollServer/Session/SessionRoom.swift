import ScrollCore

/// A room as a client session sees it. `Room` is one (its scene runs here); a room run by
/// another process and relayed here would be another, without the session changing.
package protocol SessionRoom: RoomFeed {
    var name: String { get }
    /// Monotonic `now` as the room's scene time (traces and `applied` are in it).
    func sceneTime(_ now: Double) -> Double
    /// True while the frame clock must tick for this room.
    var needsTick: Bool { get }
    /// The widget that takes keys and actions that name none.
    var defaultFocusID: String? { get }
    /// `client` joins: its colour. `welcome` is the message that tells it so.
    func join(_ client: String) -> Color
    func welcome(client: String, color: Color, theme: String) -> String
    /// `client` left: its pointers are let go as if lifted; the events that caused.
    func leave(_ client: String, now: Double) -> [SceneEvent]
    /// Follows `client`'s pointer for its dot (hover and pointer messages).
    func track(_ message: ClientMessage, from client: String)
    /// Throws when the scene cannot perform `action` (no such widget or action, bad arguments).
    func check(_ action: ActionInput) throws(ActionError)
    /// Applies inputs at `now`; the events they caused.
    func apply(_ inputs: [SceneInput], now: Double) -> [SceneEvent]
    /// How the layer of the widget `client` holds follows its pointer, if it does (`applied`).
    func follow(for client: String) -> LayerFollow?
}

/// How a session gets into a room (the `RoomDirectory`, through the switchboard).
package protocol RoomJoining {
    func join(_ room: String, scene: String?, client: UInt64, now: Double) -> JoinAnswer
}

package enum JoinAnswer {
    case joined(any SessionRoom)
    case refused(ProtocolError)
    /// The room is not here yet (a cluster node claiming it): the switchboard calls
    /// `ClientSession.roomReady` or `roomUnavailable` when it knows.
    case waiting

    package init(_ result: Result<some SessionRoom, ProtocolError>) {
        switch result {
        case .success(let joined): self = .joined(joined)
        case .failure(let refusal): self = .refused(refusal)
        }
    }
}
