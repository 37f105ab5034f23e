import ScrollCore

/// One scene shared by the clients in it: its feed. Renders and encodes a frame once per
/// change and theme; every client of that theme is handed the same buffers. Who is in it and
/// whether it is stored is the `RoomDirectory`'s business.
package final class Room: RoomFeed {
    package let name: String
    package let scene: Scene
    /// Monotonic time at which scene time 0 was.
    let origin: Double

    /// Free bytes in front of every payload, for the WebSocket header.
    private let headroom: Int
    private var changeCount = 0
    private var frames: [CachedFrame] = []
    /// Frames rendered and encoded so far, every theme's (`/metrics`).
    package private(set) var framesRendered = 0
    package private(set) var semanticsVersion = 1
    /// Scene time semantics were last compared; while the scene moves, at most every `semanticsInterval`.
    private var semanticsCheckedAt = -Double.infinity
    static let semanticsInterval = 0.25
    package private(set) var semantics: SharedPayload
    /// From version − 1 to this one, when there is one and it is shorter (docs/PROTOCOL.md, `semantics`).
    package private(set) var semanticsPatch: SharedPayload?
    private var lastSemantics: [Semantics]
    /// `lastSemantics` as the messages write them, for the next patch.
    private var lastSemanticsJSON: [JSONValue]
    /// Who is here, their colours and pointers: drawn as the topmost layer.
    package private(set) var presence = Presence()
    package private(set) var presenceVersion = 1
    package private(set) var presenceMessage: SharedPayload
    /// Changes whenever what the presence layer shows may have (its members and their dots);
    /// with the scene's `holdersVersion` it keys the layer's last drawing, reused until either
    /// changes (a lone client's drag moves neither; in a shared room its dot moves each move).
    private var dotsVersion = 0
    private var dotsDrawn: (version: Int, holders: Int, list: DisplayList)?
    /// A dot moved by hover alone: drawn at the next tick, so a hover flood costs one frame a tick.
    package private(set) var dotsMoved = false
    /// Which events go ahead of time, and what is owed to the clients since the last batch.
    private var ahead = EventsAhead()
    private var route = EventsAhead.Route()

    /// One per theme in use (one or two): a short array beats hashing the name per client.
    private struct CachedFrame {
        let themeName: String
        var encoder = FrameEncoder()
        var renderedChange = -1
        var frame: SharedFrame?
    }

    package init(name: String, scene: Scene, origin: Double, headroom: Int = SharedPayload.lwsHeadroom) {
        self.name = name
        self.scene = scene
        self.origin = origin
        self.headroom = headroom
        lastSemantics = scene.semantics
        lastSemanticsJSON = lastSemantics.map(\.json)
        semantics = SharedPayload(text: ServerMessage.semantics(json: lastSemanticsJSON), headroom: headroom)
        presenceMessage = SharedPayload(text: ServerMessage.presence(presence), headroom: headroom)
    }

    /// True while the frame clock must tick for this room.
    package var needsTick: Bool { dotsMoved || scene.isAnimating }
    /// When the frame clock next ticks this room (server time; set by the switchboard while the
    /// room moves, nil otherwise).
    package var nextTick: Double?

    /// `client` joins the room: it gets a colour (returned), everyone a new presence message.
    @discardableResult
    package func join(_ client: String) -> Color {
        let color = presence.join(client)
        presenceChanged()
        return color
    }

    /// `client` left: its pointers are let go (as lifted) and its colour freed. Returns the
    /// events its leaving caused.
    package func leave(_ client: String, now: Double) -> [SceneEvent] {
        presence.leave(client)
        presenceChanged()
        return apply([.leave(client: client)], now: now)
    }

    /// Follows `client`'s pointer for its dot. A pointer message's dot is drawn with the
    /// input's own frame; a hover's at the next tick (`needsTick`).
    package func track(_ message: ClientMessage, from client: String) {
        // Alone, its dot is followed but not drawn (nobody else would see it): drawn once
        // another client joins.
        guard presence.track(message, from: client), presence.members.count > 1 else { return }
        dotsVersion &+= 1
        if case .hover = message { dotsMoved = true }
    }

    package func sceneTime(_ now: Double) -> Double { now - origin }

    /// Applies inputs at `now`; returns the events they caused.
    package func apply(_ inputs: [SceneInput], now: Double) -> [SceneEvent] {
        let t = sceneTime(now)
        for input in inputs { scene.apply(input, at: t) }
        return happened(at: t)
    }

    package func advance(now: Double) -> [SceneEvent] {
        dotsMoved = false
        scene.advance(to: sceneTime(now))
        return happened(at: sceneTime(now))
    }

    /// What the scene did by `time`: all of it is returned (stored state, traces); what the
    /// clients are sent of it waits in `route` (some went ahead).
    private func happened(at time: Double) -> [SceneEvent] {
        let events = scene.takeEvents()
        let scene = scene, glides = scene.glides
        // Most inputs and ticks: no event, no glide, nothing went ahead; nothing to route.
        if !events.isEmpty || !glides.isEmpty || ahead.hasPlans {
            route.append(ahead.route(events, at: time, glides: glides) { scene.eventsAhead(of: $0) })
        }
        changed(at: time, settling: events.contains(where: \.settles))
        return events
    }

    /// The `events` message owed to every client since the last call, if any.
    package func takeEventBatch() -> EventBatch? {
        defer { route = EventsAhead.Route() }
        return route.isEmpty ? nil : EventBatch(route, headroom: headroom)
    }

    /// The events sent ahead still to come: what a client joining at `now` is owed.
    package func eventsAhead(now: Double) -> EventBatch? {
        let pending = ahead.pending(after: sceneTime(now))
        return pending.isEmpty ? nil : EventBatch(EventsAhead.Route(ahead: pending), headroom: headroom)
    }

    /// The latest frame for `theme`, rendered now if anything changed since the last one.
    package func frame(theme: Theme) -> SharedFrame {
        let i = cacheIndex(theme.renderKey)
        if frames[i].renderedChange != changeCount || frames[i].frame == nil {
            var layers = scene.render(theme: theme)
            layers.append(Layer(id: UInt16(scene.widgets.count + 1), list: presenceDrawing()))
            let encoded = frames[i].encoder.encode(layers, time: scene.time)
            // The one copy: into buffers with headroom, shared by every client of this theme.
            let headroom = headroom
            frames[i].frame = SharedFrame(
                seq: encoded.seq, delta: SharedPayload(encoded.delta, headroom: headroom),
                changed: frames[i].frame == nil || encoded.changedLayers > 0,
                full: { SharedPayload(encoded.full, headroom: headroom) })
            frames[i].renderedChange = changeCount
            framesRendered += 1
        }
        return frames[i].frame!
    }

    /// The presence layer's drawing: outlines of the widgets held, and the hover dots.
    private func presenceDrawing() -> DisplayList {
        if let drawn = dotsDrawn, drawn.version == dotsVersion, drawn.holders == scene.holdersVersion {
            return drawn.list
        }
        var dots = DisplayList(reservingCapacity: 256)
        presence.render(holders: scene.holders.map { (scene.widgets[$0.widget].frame, $0.client) }, into: &dots)
        dotsDrawn = (dotsVersion, scene.holdersVersion, dots)
        return dots
    }

    private func cacheIndex(_ themeName: String) -> Int {
        if let i = frames.firstIndex(where: { $0.themeName == themeName }) { return i }
        frames.append(CachedFrame(themeName: themeName))
        return frames.count - 1
    }

    private func presenceChanged() {
        dotsVersion &+= 1
        presenceMessage = SharedPayload(text: ServerMessage.presence(presence), headroom: headroom)
        presenceVersion += 1
        changeCount &+= 1
    }

    private func changed(at time: Double, settling: Bool) {
        changeCount &+= 1
        // While anything moves, what screen readers see is refreshed 4 times a second, not every
        // frame (each message goes to every client); at rest, and when a value settles or an item
        // comes or goes, at once.
        guard settling || !scene.isAnimating || time - semanticsCheckedAt >= Self.semanticsInterval else { return }
        semanticsCheckedAt = time
        let now = scene.semantics
        // A widget whose values went ahead does not make a message by moving: the page shows its
        // moving values from those events, and its settled one comes with `settling`. A message
        // that goes for another reason says where it is now.
        let going = settling ? [] : ahead.widgetsAhead
        var compared = now
        for i in compared.indices where going.contains(compared[i].id) {
            if let was = lastSemantics.first(where: { $0.id == compared[i].id }) { compared[i] = was }
        }
        guard compared != lastSemantics else { return }
        let json = now.map(\.json)
        let full = ServerMessage.semantics(json: json)
        let patch = SemanticsPatch.message(from: lastSemanticsJSON, to: json, full: full)
        lastSemantics = now
        lastSemanticsJSON = json
        semantics = SharedPayload(text: full, headroom: headroom)
        semanticsPatch = patch.map { SharedPayload(text: $0, headroom: headroom) }
        semanticsVersion += 1
    }
}

extension SceneEvent {
    /// A value came to rest or the carousel's items or selection changed: semantics follow at
    /// once, and the room's settled state is worth storing.
    package var settles: Bool {
        switch kind {
        case .value(_, _, let final): final
        case .selected, .added, .deleted, .announcement: true
        case .moved, .haptic: false
        }
    }
}

extension Room: SessionRoom {
    package var defaultFocusID: String? { scene.defaultFocus?.id }

    package func welcome(client: String, color: Color, theme: String) -> String {
        ServerMessage.welcome(client: client, color: color, room: name, scene: scene, theme: theme)
    }

    package func check(_ action: ActionInput) throws(ActionError) { _ = try scene.check(action) }

    package func follow(for client: String) -> LayerFollow? { scene.follow(for: client) }
}
