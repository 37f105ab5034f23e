import ScrollCore

/// What one client message (or leaving) means outside the session, in order: the switchboard
/// carries each out (its queue, the room's other clients, the recorder, the store, the clock).
package enum SessionEffect: Equatable {
    /// The welcome: never dropped, since without it the page never starts.
    case welcome(String)
    /// The message was refused; the connection stays.
    case refuse(ProtocolError)
    /// The error is sent, then the connection closes with its code.
    case close(ProtocolError)
    case pong(t: Double)
    /// The session is now in this room: it gets the room's traffic.
    case joined(room: String)
    /// The session left its room.
    case left(room: String)
    /// The room applied this message at this scene time: the trace keeps it.
    case record(ClientMessage, roomTime: Double)
    /// The client left the room at this scene time: the trace keeps it.
    case recordLeave(roomTime: Double)
    /// The input with this client time was applied: echoed after the frame that shows it, with
    /// how the layer the client holds follows its pointer (if it does), and `t` as the client
    /// wrote it when it was read so (`ClientMessage.parse(_:timeText:)`).
    case applied(t: Double, follow: LayerFollow?, text: NumberText? = nil)
    /// The room changed (maybe with these events): every client of it is owed a write, and a
    /// settling event makes the room's state worth storing.
    case publish([SceneEvent])
    /// Only a dot moved: the frame clock must run.
    case tick
    /// The client's theme changed: its next frame is a full one in the new theme.
    case restartFrames
    /// A client of a room relayed from another node (docs/CLUSTER.md): this message goes to the
    /// room's owner as the client sent it.
    case forward(String)
    /// Its hello goes to the relayed room's owner (again after an owner change).
    case forwardHello(String)
}
