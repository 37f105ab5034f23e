import ScrollCore

/// What a client's connection does at one writable moment.
package enum OutboundAction {
    case write(SharedPayload, MessageKind)
    case close(code: UInt16, reason: String)
    case nothing
}

package enum MessageKind: Equatable { case text, binary }

/// One client's output policy (docs/PROTOCOL.md, "Order per connection" and "Errors"),
/// free of sockets and clocks: the server feeds it and writes what `next` returns,
/// one message per writable callback, asking for another while `owesMore`.
package struct OutboundQueue {
    package static let maxControl = 32

    /// Room for lws's header in front of the payloads this queue makes itself.
    let headroom: Int
    let maxQueuedEvents: Int

    /// Welcome and errors, in order; bounded unless `always`.
    private var control: [SharedPayload] = []
    /// Only the newest pong matters (round-trip measurement).
    private var pong: SharedPayload?
    /// The newest applied input's client time, held until a frame goes (latest only).
    private var applied: Double?
    /// The client time of the input the frame just written is the first to show: its echo is
    /// written next, so the frame itself waits for nothing (input-to-frame is then the echo's
    /// round trip plus drawing). Its text is made then too, not before the frame.
    private var echoOfSentFrame: Double?
    /// Whether the last message written was a frame (frames and the rest take turns).
    private var lastWasFrame = false
    /// Whether any frame was ever written: only the very first waits for semantics and presence
    /// (a theme change restarts the frame numbers, not that).
    private var hadFrame = false
    /// Batches shared with the room's other clients.
    private var events: [EventBatch] = []
    package private(set) var queuedEvents = 0
    private var semanticsSent = 0
    private var presenceSent = 0
    /// Last frame sequence number sent or skipped as unchanged (0: none yet).
    package private(set) var frameSeq: UInt32 = 0
    /// Set by a fatal refusal or the server stopping: the connection closes once control is flushed.
    private var closing: (code: UInt16, reason: String)?
    package private(set) var droppedControl = 0
    /// Bytes copied into payloads made for this client alone (control, pongs). Frames, events
    /// and semantics are the room's buffers, written as they are, so they add nothing.
    package private(set) var bytesCopied = 0

    package init(headroom: Int, maxQueuedEvents: Int) {
        self.headroom = headroom
        self.maxQueuedEvents = maxQueuedEvents
    }

    package var isClosing: Bool { closing != nil }

    // MARK: input; each returns whether the client now needs a writable callback

    /// A client that does not read its errors loses the excess ones (counted), not its connection.
    @discardableResult
    package mutating func enqueueControl(_ text: String, always: Bool = false) -> Bool {
        guard always || control.count < Self.maxControl else {
            droppedControl += 1
            return false
        }
        control.append(payload(text))
        return true
    }

    /// The error gets through whatever is queued: it explains the close that follows.
    @discardableResult
    package mutating func enqueueFatal(_ error: ProtocolError) -> Bool {
        guard closing == nil else { return false }
        control.append(payload(ServerMessage.error(error, fatal: true)))
        pong = nil
        applied = nil
        echoOfSentFrame = nil
        closing = (error.code.closeCode, error.code.rawValue)
        return true
    }

    /// The server is stopping: what control is queued goes, then the close (1001); no more
    /// room traffic. Returns false if the connection was closing already.
    @discardableResult
    package mutating func enqueueGoingAway() -> Bool {
        guard closing == nil else { return false }
        pong = nil
        applied = nil
        echoOfSentFrame = nil
        closing = (CloseCode.goingAway, "going away")
        return true
    }

    @discardableResult
    package mutating func enqueuePong(_ text: String) -> Bool {
        guard closing == nil else { return false }
        pong = payload(text)
        return true
    }

    /// The room applied this client's input with client time `t` (ms): echoed right after the
    /// next frame it gets, which is the first that can show it.
    @discardableResult
    package mutating func noteApplied(t: Double) -> Bool {
        guard closing == nil else { return false }
        applied = t
        return true
    }

    /// The client's theme changed: its next frame is a full one (its frame numbers were another
    /// theme's), and nothing of the old theme is continued.
    package mutating func restartFrames() { frameSeq = 0 }

    /// Past `maxQueuedEvents` the client has stopped reading: everything queued goes,
    /// and it is told why and closed.
    @discardableResult
    package mutating func enqueue(_ batch: EventBatch) -> Bool {
        guard closing == nil else { return false }
        events.append(batch)
        queuedEvents += batch.count
        guard queuedEvents > maxQueuedEvents else { return true }
        control.removeAll()
        events.removeAll()
        queuedEvents = 0
        return enqueueFatal(ProtocolError(.slowConsumer, "too many undelivered messages; reconnect"))
    }

    // MARK: output

    /// The first of: the echo of the frame just sent, control, pong, close, events, semantics,
    /// presence, the latest frame — except that, after its first frame, a due frame goes before
    /// the events, semantics and presence whenever the last message was not a frame.
    /// Without a room only the first three exist.
    package mutating func next(from room: (any RoomFeed)?, theme: Theme) -> OutboundAction {
        // Straight after its frame: the page times the frame it has just received.
        if let t = echoOfSentFrame {
            echoOfSentFrame = nil
            return .write(payload(ServerMessage.applied(t: t)), .text)
        }
        if !control.isEmpty { return .write(control.removeFirst(), .text) }
        if let pong {
            self.pong = nil
            return .write(pong, .text)
        }
        if let closing { return .close(code: closing.code, reason: closing.reason) }
        guard let room else { return .nothing }
        // After its first frame, a client's frames are not starved by events, semantics and
        // presence (a busy room makes some every tick; one is written per callback): when both
        // wait, they take turns. Its first frame follows its semantics and presence.
        if hadFrame, !lastWasFrame, let frame = nextFrame(from: room, theme: theme) { return frame }
        lastWasFrame = false
        if !events.isEmpty {
            let batch = events.removeFirst()
            queuedEvents -= batch.count
            return .write(batch.payload, .text)
        }
        if semanticsSent != room.semanticsVersion {
            semanticsSent = room.semanticsVersion
            return .write(room.semantics, .text)
        }
        if presenceSent != room.presenceVersion {
            presenceSent = room.presenceVersion
            return .write(room.presenceMessage, .text)
        }
        return nextFrame(from: room, theme: theme) ?? .nothing
    }

    /// The latest frame if one is due (nil: none, or the due one looks like the last and counts
    /// as received without being sent).
    private mutating func nextFrame(from room: any RoomFeed, theme: Theme) -> OutboundAction? {
        let frame = room.frame(theme: theme)
        guard frame.seq != frameSeq else { return nil }
        // Latest wins: a delta only continues frame seq − 1; anyone else needs the full frame.
        let continuous = frameSeq != 0 && frameSeq &+ 1 == frame.seq
        frameSeq = frame.seq
        // Drawn after the pending input (the room draws on demand), so it is the first to show it.
        let echo = applied
        applied = nil
        // Identical to the last: the input changed nothing to see; no frame to time it by.
        guard !continuous || frame.changed else { return nil }
        echoOfSentFrame = echo
        lastWasFrame = true
        hadFrame = true
        return .write(continuous ? frame.delta : frame.full, .binary)
    }

    /// Whether anything is still owed, so another writable callback is wanted. Renders the room's
    /// latest frame if it is due (rooms draw on demand), to see whether it is new.
    package func owesMore(renderingFrom room: (any RoomFeed)?, theme: Theme) -> Bool {
        if echoOfSentFrame != nil || !control.isEmpty || pong != nil || closing != nil { return true }
        guard let room else { return false }
        return !events.isEmpty || semanticsSent != room.semanticsVersion || presenceSent != room.presenceVersion
            || room.frame(theme: theme).seq != frameSeq
    }

    private mutating func payload(_ text: String) -> SharedPayload {
        let made = SharedPayload(text: text, headroom: headroom)
        bytesCopied += made.count
        return made
    }
}
