import ScrollCore

/// Rooms' settled state across restarts (docs/STATE.md): restored at start, saved when
/// something settles, kept when a room is evicted, flushed when the server stops.
extension WebSocketServer {
    /// Before the port accepts anyone: the `maxRooms` rooms saved most recently are made
    /// (empty of clients), the rest wait dormant until someone joins them.
    func restoreRooms(now: Double) {
        guard let state else { return }
        let stored: [StoredRoom]
        do { stored = try state.writer.store.loadAll() } catch {
            logger.error("cannot read stored rooms; starting without them", metadata: ["reason": "\(error)"])
            return
        }
        let wall = WallClock.now()
        for saved in stored {
            if rooms.count < config.maxRooms {
                if let room = makeRoom(from: saved, now: now, wall: wall) { rooms[room.name] = room }
            } else {
                state.keep(saved, live: rooms.count)
            }
        }
        logger.info(
            "restored rooms",
            metadata: ["rooms": "\(rooms.count)", "dormant": "\(state.dormant.count)", "stored": "\(stored.count)"])
    }

    /// The dormant room `name`, restored, when there is one and room for it (else nil: the
    /// caller makes a fresh room or refuses, as for any new room).
    func wakeRoom(_ name: String, now: Double) -> Room? {
        guard let state, state.dormant[name] != nil, rooms.count < config.maxRooms || evictIdleRoom(),
            let saved = state.wake(name), let room = makeRoom(from: saved, now: now, wall: WallClock.now())
        else { return nil }
        rooms[name] = room
        return room
    }

    /// A room restored from the store, or nil when the stored state is refused: the reason is
    /// logged, the row removed, and the room starts fresh when someone joins it.
    private func makeRoom(from saved: StoredRoom, now: Double, wall: Double) -> Room? {
        let scene: Scene
        do throws(SnapshotError) {
            // Room names become trace file names (--record): only what hello would accept.
            guard FieldRule<String, String>.identifier.validate(saved.name) != nil else {
                throw SnapshotError("the room name is not \(FieldRule<String, String>.identifier.expectation)")
            }
            guard let made = scenes.make(saved.scene) else { throw SnapshotError(scenes.unknown(saved.scene)) }
            try made.restore(SceneSnapshot(parsing: saved.snapshot))
            scene = made
        } catch {
            logger.warning(
                "stored room refused; it starts fresh", metadata: ["room": "\(saved.name)", "reason": "\(error)"])
            state?.writer.remove(saved.name)
            return nil
        }
        scene.dice.reseed(UInt64.random(in: 0...UInt64(Int64.max)))
        // Idle as long as it has been since it was saved, so eviction drops the oldest first.
        let room = Room(name: saved.name, scene: scene, origin: now)
        room.lastActivity = now - max(wall - saved.updated, 0)
        room.savedSnapshot = saved.snapshot
        room.isStored = true
        traces?.created(room: room.name, scene: scene.name, seed: scene.dice.seed)
        return room
    }

    /// A new room's starting state: nothing is stored until it differs.
    func noteFresh(_ room: Room) {
        guard state != nil else { return }
        room.savedSnapshot = room.scene.snapshot().text
    }

    /// Hands the room's settled state to the writer if it changed since last saved.
    func persist(_ room: Room) {
        guard let state else { return }
        let text = room.scene.snapshot().text
        guard text != room.savedSnapshot else { return }
        room.savedSnapshot = text
        room.isStored = true
        state.writer.save(StoredRoom(name: room.name, scene: room.scene.name, snapshot: text, updated: WallClock.now()))
    }

    /// An evicted room's state stays stored (dormant) for when someone joins it again.
    func retire(_ room: Room) {
        guard let state else { return }
        persist(room)
        guard room.isStored, let text = room.savedSnapshot else { return }
        let saved = StoredRoom(name: room.name, scene: room.scene.name, snapshot: text, updated: WallClock.now())
        for name in state.keep(saved, live: rooms.count) {
            logger.info("forgot a stored room (too many stored)", metadata: ["room": "\(name)"])
        }
    }

    /// At the end of `run()`: every room's state, then the writer is flushed and the store closed.
    func closeState() {
        guard let state else { return }
        for room in rooms.values { persist(room) }
        state.writer.close()
    }
}
