import ScrollCore

/// What a client's connection does at one writable moment.
package enum OutboundAction {
    case write(SharedPayload, MessageKind)
    case close(code: UInt16, reason: String)
    case nothing
}

package enum MessageKind: Equatable { case text, binary }

/// One message of a write: `OutboundQueue.nextBatch` gathers them, the transport frames them.
package struct OutboundMessage {
    package let payload: SharedPayload
    package let kind: MessageKind
}

/// Frames and bytes written, and frames skipped ("latest wins"): one client's, or added up.
package struct SentCounts: Equatable {
    package var frames = 0
    /// Frames a client never got because a newer one replaced them: the gap in frame numbers
    /// before a full frame of the same theme.
    package var skipped = 0
    /// Bytes of every message written (frames and text; WebSocket headers not counted).
    package var bytes = 0

    package init(frames: Int = 0, skipped: Int = 0, bytes: Int = 0) {
        self.frames = frames
        self.skipped = skipped
        self.bytes = bytes
    }

    package static func + (a: SentCounts, b: SentCounts) -> SentCounts {
        SentCounts(frames: a.frames + b.frames, skipped: a.skipped + b.skipped, bytes: a.bytes + b.bytes)
    }
}

/// When a client counts as no longer reading (docs/PROTOCOL.md, `slow_consumer`): judged by what
/// it fails to take, never by how many events a burst made. A reader that keeps taking messages
/// is never closed, however much a room sends at once.
package struct SlowReaderRule: Equatable, Sendable {
    /// Events have waited this long (s) and the client took nothing meanwhile.
    package var stallTimeout = 10.0
    /// Bytes of events waiting for the client (the room's shared buffers, so this bounds how long
    /// they are kept alive for it, not copies): far above any burst one client can cause within
    /// the rate limit (2,000 messages of at most ~4 KB of events each).
    package var maxQueuedBytes = 32 << 20

    package init(stallTimeout: Double = 10, maxQueuedBytes: Int = 32 << 20) {
        self.stallTimeout = stallTimeout
        self.maxQueuedBytes = maxQueuedBytes
    }
}

/// One client's output policy (docs/PROTOCOL.md, "Order per connection" and "Errors"),
/// free of sockets and clocks: the server feeds it and, each time the client can write, writes
/// what `nextBatch` gathers in one write (the messages `next` would return one by one), asking
/// for another chance while `owesMore`.
package struct OutboundQueue {
    package static let maxControl = 32
    /// What one write gathers at most before it stops taking messages (the first always goes,
    /// however long): bounds what lws must keep of a write the socket does not take at once.
    package static let maxBatchBytes = 64 << 10

    /// Room for lws's header in front of the payloads this queue makes itself.
    let headroom: Int
    let slowReader: SlowReaderRule
    /// Where errors, closes and input-to-frame samples are counted (nil: nowhere). Frames and
    /// bytes, counted on every write, stay here in `sent`: a field of the queue costs the write
    /// two additions, a shared object's would also cost reference counting. Not retained (each
    /// copy of the queue would retain it): the switchboard that owns it outlives every queue.
    unowned(unsafe) let counters: ServerCounters?

    /// Welcome and errors, in order; bounded unless `always`.
    private var control: [SharedPayload] = []
    /// Only the newest pong matters (round-trip measurement).
    private var pong: SharedPayload?
    /// The newest applied input's client time `t`, held until a frame goes (latest only), and
    /// when the oldest input not shown yet was received (server time): input-to-frame runs from
    /// there to the write of the frame that shows it.
    private var applied: (t: Double, follow: LayerFollow?, text: NumberText?, since: Double)?
    /// The client time of the input the frame just written is the first to show: its echo is
    /// written next, so the frame itself waits for nothing (input-to-frame is then the echo's
    /// round trip plus drawing). Its text is made then too, not before the frame.
    private var echoOfSentFrame: (t: Double, follow: LayerFollow?, text: NumberText?)?
    /// The last `follow` echoed, and its field as `applied` writes it.
    private var lastFollowField: (follow: LayerFollow, text: String)?
    /// Whether the last message written was a frame (frames and the rest take turns).
    private var lastWasFrame = false
    /// Whether any frame was ever written: only the very first waits for semantics and presence
    /// (a theme change restarts the frame numbers, not that).
    private var hadFrame = false
    /// Batches shared with the room's other clients.
    private var events: [EventBatch] = []
    package private(set) var queuedEventBytes = 0
    /// When the client last took a message, or when its oldest waiting events came if later.
    private var progressAt = -Double.infinity
    /// The room's semantics version this client has (0: none; a room's first version has no patch).
    private var semanticsSent = 0
    private var presenceSent = 0
    /// Last frame sequence number sent or skipped as unchanged (0: none yet).
    package private(set) var frameSeq: UInt32 = 0
    /// Set by a fatal refusal or the server stopping: the connection closes once control is flushed.
    private var closing: (code: UInt16, reason: String)?
    package private(set) var droppedControl = 0
    /// What this queue has written (the switchboard adds every client's up for `/metrics`).
    package private(set) var sent = SentCounts()
    /// Bytes copied into payloads made for this client alone (control, pongs). Frames, events
    /// and semantics are the room's buffers, written as they are, so they add nothing.
    package private(set) var bytesCopied = 0

    package init(headroom: Int, slowReader: SlowReaderRule = SlowReaderRule(), counters: ServerCounters? = nil) {
        self.headroom = headroom
        self.slowReader = slowReader
        self.counters = counters
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

    /// A refusal: the connection stays. Counted when queued (not when dropped unread).
    @discardableResult
    package mutating func enqueueError(_ error: ProtocolError) -> Bool {
        guard enqueueControl(ServerMessage.error(error)) else { return false }
        counters?.count(error.code)
        return true
    }

    /// The error gets through whatever is queued: it explains the close that follows.
    @discardableResult
    package mutating func enqueueFatal(_ error: ProtocolError) -> Bool {
        guard closing == nil else { return false }
        control.append(payload(ServerMessage.error(error, fatal: true)))
        counters?.count(error.code)
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

    /// The room applied this client's input with client time `t` (ms), received at `now`: echoed
    /// right after the next frame it gets, which is the first that can show it (as `text`, the
    /// client's own writing of `t`, when given).
    @discardableResult
    package mutating func noteApplied(
        t: Double, follow: LayerFollow? = nil, text: NumberText? = nil, receivedAt now: Double
    ) -> Bool {
        guard closing == nil else { return false }
        applied = (t, follow, text, applied?.since ?? now)
        return true
    }

    /// The client's theme changed: its next frame is a full one (its frame numbers were another
    /// theme's), and nothing of the old theme is continued.
    package mutating func restartFrames() { frameSeq = 0 }

    /// A welcome went to the client after its semantics (a relayed room's owner welcomes it a hop
    /// later): the page starts its semantics afresh at a welcome, so the whole list goes again.
    package mutating func welcomedAfterSemantics() { semanticsSent = -1 }

    /// The client reads another room now (a cluster node took its room over, or the room got a new
    /// owner): its next frame is a full one, and the room's semantics and presence go again.
    package mutating func readsAnotherRoom() {
        frameSeq = 0
        semanticsSent = -1
        presenceSent = -1
    }

    /// Events for the client, at `now`. One that has taken nothing for `stallTimeout` while
    /// events waited, or has more than `maxQueuedBytes` of them waiting, has stopped reading:
    /// everything queued goes, and it is told why and closed.
    @discardableResult
    package mutating func enqueue(_ batch: EventBatch, now: Double) -> Bool {
        guard closing == nil else { return false }
        if events.isEmpty { progressAt = max(progressAt, now) }
        events.append(batch)
        queuedEventBytes += batch.payload.count
        let stalled = now - progressAt >= slowReader.stallTimeout
        guard stalled || queuedEventBytes > slowReader.maxQueuedBytes else { return true }
        control.removeAll()
        events.removeAll()
        queuedEventBytes = 0
        let why = stalled ? "took nothing for \(Int(slowReader.stallTimeout)) s" : "fell too far behind"
        return enqueueFatal(ProtocolError(.slowConsumer, "undelivered messages: the client \(why); reconnect"))
    }

    // MARK: output

    /// Everything owed at `now`, for one write, appended to `batch`: the messages successive
    /// `next` calls return, in their order, until nothing more is owed, the close is next (the
    /// transport carries it out at a writable moment of its own) or `maxBytes` are gathered.
    package mutating func nextBatch(
        from room: (any RoomFeed)?, theme: Theme, now: Double, maxBytes: Int = maxBatchBytes,
        into batch: inout [OutboundMessage]
    ) {
        var bytes = 0
        while bytes < maxBytes, !closeIsNext, owesMore(renderingFrom: room, theme: theme) {
            guard case .write(let payload, let kind) = next(from: room, theme: theme, now: now) else { continue }
            batch.append(OutboundMessage(payload: payload, kind: kind))
            bytes += payload.count
        }
    }

    /// Whether `next` would return the close: everything before it has been written.
    package var closeIsNext: Bool { closing != nil && echoOfSentFrame == nil && control.isEmpty && pong == nil }

    /// The first of: the echo of the frame just sent, control, pong, close, events, semantics (what
    /// changed, to a client one version behind; else all of it), presence, the latest frame —
    /// except that, after its first frame, a due frame goes before the events, semantics and
    /// presence whenever the last message was not a frame.
    /// Without a room only the first three exist.
    package mutating func next(from room: (any RoomFeed)?, theme: Theme, now: Double) -> OutboundAction {
        let action = choose(from: room, theme: theme, now: now)
        if case .write(let payload, _) = action {
            progressAt = now
            sent.bytes &+= payload.count
        }
        return action
    }

    private mutating func choose(from room: (any RoomFeed)?, theme: Theme, now: Double) -> OutboundAction {
        // Straight after its frame: the page times the frame it has just received.
        if let echo = echoOfSentFrame {
            echoOfSentFrame = nil
            let field = followField(echo.follow)
            let made = SharedPayload(headroom: headroom, capacity: ServerMessage.appliedCapacity(followField: field)) {
                ServerMessage.writeApplied(t: echo.t, text: echo.text, followField: field, into: $0)
            }
            bytesCopied += made.count
            return .write(made, .text)
        }
        if !control.isEmpty { return .write(control.removeFirst(), .text) }
        if let pong {
            self.pong = nil
            return .write(pong, .text)
        }
        if let closing {
            counters?.countClose(closing.code)
            return .close(code: closing.code, reason: closing.reason)
        }
        guard let room else { return .nothing }
        // After its first frame, a client's frames are not starved by events, semantics and
        // presence (a busy room makes some every tick; one is written per callback): when both
        // wait, they take turns. Its first frame follows its semantics and presence.
        if hadFrame, !lastWasFrame, let frame = nextFrame(from: room, theme: theme, now: now) { return frame }
        lastWasFrame = false
        if !events.isEmpty {
            let batch = events.removeFirst()
            queuedEventBytes -= batch.payload.count
            return .write(batch.payload, .text)
        }
        if semanticsSent != room.semanticsVersion {
            // Only a client that has the version before may be sent what changed since.
            let patch = semanticsSent == room.semanticsVersion - 1 ? room.semanticsPatch : nil
            semanticsSent = room.semanticsVersion
            return .write(patch ?? room.semantics, .text)
        }
        if presenceSent != room.presenceVersion {
            presenceSent = room.presenceVersion
            return .write(room.presenceMessage, .text)
        }
        return nextFrame(from: room, theme: theme, now: now) ?? .nothing
    }

    /// The latest frame if one is due (nil: none, or the due one looks like the last and counts
    /// as received without being sent), to be written at `now`.
    private mutating func nextFrame(from room: any RoomFeed, theme: Theme, now: Double) -> OutboundAction? {
        let frame = room.frame(theme: theme)
        guard frame.seq != frameSeq else { return nil }
        // Latest wins: a delta only continues frame seq − 1; anyone else needs the full frame.
        let continuous = frameSeq != 0 && frameSeq &+ 1 == frame.seq
        // The frames between were replaced by this one (a theme change restarts from 0: none).
        if frameSeq != 0, !continuous, frame.seq > frameSeq { sent.skipped &+= Int(frame.seq - frameSeq - 1) }
        frameSeq = frame.seq
        // Drawn after the pending input (the room draws on demand), so it is the first to show it.
        let echo = applied
        applied = nil
        // Identical to the last: the input changed nothing to see; no frame to time it by.
        guard !continuous || frame.changed else { return nil }
        echoOfSentFrame = echo.map { ($0.t, $0.follow, $0.text) }
        if let since = echo?.since { counters?.inputShown(after: now - since) }
        sent.frames &+= 1
        lastWasFrame = true
        hadFrame = true
        return .write(continuous ? frame.delta : frame.full, .binary)
    }

    /// Whether anything is still owed, so another writable callback is wanted. Renders the room's
    /// latest frame if it is due (rooms draw on demand), to see whether it is new. Mutating only
    /// so that it runs in place: the room it calls could reach the queue, so a non-mutating call on
    /// a class's queue is given a copy of the whole queue, every reference in it retained.
    package mutating func owesMore(renderingFrom room: (any RoomFeed)?, theme: Theme) -> Bool {
        if echoOfSentFrame != nil || !control.isEmpty || pong != nil || closing != nil { return true }
        guard let room else { return false }
        return !events.isEmpty || semanticsSent != room.semanticsVersion || presenceSent != room.presenceVersion
            || room.frame(theme: theme).seq != frameSeq
    }

    /// `follow`'s field in `applied`, written once while it stays the same (a drag's).
    private mutating func followField(_ follow: LayerFollow?) -> String? {
        guard let follow else { return nil }
        if let written = lastFollowField, written.follow == follow { return written.text }
        let text = ServerMessage.appliedFollowField(follow)
        lastFollowField = (follow, text)
        return text
    }

    private mutating func payload(_ text: String) -> SharedPayload {
        let made = SharedPayload(text: text, headroom: headroom)
        bytesCopied += made.count
        return made
    }
}
