/// Which rooms this node owns or follows in a cluster (docs/CLUSTER.md), and what it must ask the
/// shared key-value store, and when: claim a room nobody holds, renew its lease, write its settled
/// state at its own revision (the fencing token), let go when the lease runs out or a write is
/// refused, release everything at a stop. Pure: `now` (monotonic) is passed in, the store's answers
/// come back as calls, and what to do comes back as `OwnershipEffect`s. Service thread only.
package struct RoomOwnership {
    package struct Timing: Equatable, Sendable {
        /// The lease bucket's TTL: a lease not renewed for this long is gone.
        package var leaseTTL = 3.0
        /// How often an owner renews each lease.
        package var renewInterval = 1.0
        /// How often a node with clients of a room owned elsewhere tries to claim it.
        package var claimRetry = 1.0
        package init() {}
    }

    /// What this node is to a room.
    package enum Role: Equatable {
        /// A claim is on its way to the store.
        case claiming
        /// Ours until `validUntil` unless renewed; writes go at `stateRevision`.
        case owned
        /// Owned by `owner`; this node relays it to its clients and tries to claim it now and then.
        case relayed(owner: String)
    }

    private struct Entry {
        var role: Role
        var leaseRevision: UInt64 = 0
        var stateRevision: UInt64 = 0
        /// Until when the lease is surely ours: the send time of the last renewal that succeeded
        /// plus the TTL (the store counts from when it got it, which is later).
        var validUntil = -Double.infinity
        /// When the renewal or claim on its way was sent; nil: none is.
        var requestSentAt: Double?
        /// When the next renewal (owned) or claim (relayed) is due.
        var dueAt = 0.0
        /// The state write on its way, and the latest state waiting for it to come back (or for
        /// the store to answer again after a failed write).
        var inFlight: String?
        var pendingState: String?
        /// Stopping: the lease goes once the last write came back.
        var releasing = false
        /// A client asked for it while it was being released: claimed again once it is.
        var wantedAgain = false
    }

    package let node: String
    package let timing: Timing
    private var rooms: [String: Entry] = [:]
    private var stopping = false

    package init(node: String, timing: Timing = Timing()) {
        self.node = node
        self.timing = timing
    }

    package func role(of room: String) -> Role? { rooms[room]?.role }
    package var owned: [String] { rooms.filter { $0.value.role == .owned }.keys.sorted() }
    /// True once `releaseAll` was called and every lease is let go.
    package var released: Bool { rooms.isEmpty }

    // MARK: what the server asks

    /// A client of this node asked for `room`: claimed if nobody here knows it yet.
    package mutating func want(_ room: String, now: Double) -> [OwnershipEffect] {
        if let entry = rooms[room] {
            if entry.releasing && !stopping { rooms[room]!.wantedAgain = true }
            return []
        }
        rooms[room] = Entry(role: .claiming, requestSentAt: now)
        return [.claim(room)]
    }

    /// No client of this node is in `room` any more (owned: no client anywhere). An owned room's
    /// lease is released once its last write came back; a relayed one is forgotten.
    package mutating func unwanted(_ room: String, now: Double) -> [OwnershipEffect] {
        guard let entry = rooms[room] else { return [] }
        switch entry.role {
        case .claiming: return []
        case .relayed:
            rooms[room] = nil
            return [.unfollow(room)]
        case .owned where now >= entry.validUntil:
            // The lease ran out already: nothing left to let go of.
            rooms[room] = nil
            return []
        case .owned:
            rooms[room]!.releasing = true
            return releaseIfIdle(room, now: now)
        }
    }

    /// The room's settled state changed: written at our revision, one write at a time per room
    /// (the latest state waits for the write on its way).
    package mutating func save(_ room: String, state: String, now: Double) -> [OwnershipEffect] {
        guard let entry = rooms[room], entry.role == .owned, now < entry.validUntil else { return [] }
        if entry.inFlight != nil {
            rooms[room]!.pendingState = state
            return []
        }
        rooms[room]!.inFlight = state
        rooms[room]!.pendingState = nil
        return [.write(room, state: state, revision: entry.stateRevision)]
    }

    /// The server stops: every owned room's lease goes once its last write came back (so another
    /// node takes it at once instead of after the TTL); relayed rooms are forgotten.
    package mutating func releaseAll(now: Double) -> [OwnershipEffect] {
        stopping = true
        var effects: [OwnershipEffect] = []
        for room in rooms.keys.sorted() {
            switch rooms[room]!.role {
            case .owned:
                rooms[room]!.releasing = true
                effects += releaseIfIdle(room, now: now)
            case .relayed:
                rooms[room] = nil
                effects.append(.unfollow(room))
            case .claiming:
                // Its answer lets go of it (see `claimAnswered`).
                rooms[room]!.releasing = true
            }
        }
        return effects
    }

    /// Renewals and claims that are due, and leases that ran out (the room is lost: a paused or
    /// cut-off owner must stop serving before another node may take it).
    package mutating func tick(now: Double) -> [OwnershipEffect] {
        var effects: [OwnershipEffect] = []
        for room in rooms.keys.sorted() {
            let entry = rooms[room]!
            switch entry.role {
            case .owned where now >= entry.validUntil:
                rooms[room] = nil
                effects.append(.lose(room))
            case .owned where entry.requestSentAt == nil && now >= entry.dueAt && !entry.releasing:
                rooms[room]!.requestSentAt = now
                effects.append(.renew(room, revision: entry.leaseRevision))
            case .relayed where entry.requestSentAt == nil && now >= entry.dueAt:
                rooms[room]!.requestSentAt = now
                effects.append(.claim(room))
            default: break
            }
        }
        return effects
    }

    /// The owner of a relayed room let go of it: claimed at the next tick, not after the retry wait.
    package mutating func claimSoon(_ room: String, now: Double) -> [OwnershipEffect] {
        guard case .relayed = rooms[room]?.role else { return [] }
        rooms[room]!.dueAt = now
        return []
    }

    /// When `tick` next has something to do (nil: nothing is owned or followed).
    package var nextDue: Double? {
        rooms.values.compactMap { entry -> Double? in
            switch entry.role {
            case .claiming: nil
            case .owned: entry.requestSentAt == nil ? min(entry.dueAt, entry.validUntil) : entry.validUntil
            case .relayed: entry.requestSentAt == nil ? entry.dueAt : nil
            }
        }.min()
    }

    // MARK: what the store answered

    package mutating func claimAnswered(_ room: String, _ answer: ClaimAnswer, now: Double) -> [OwnershipEffect] {
        guard let entry = rooms[room], let sentAt = entry.requestSentAt else { return [] }
        rooms[room]!.requestSentAt = nil
        switch answer {
        case let .won(lease, state, snapshot):
            rooms[room] = Entry(
                role: .owned, leaseRevision: lease, stateRevision: state, validUntil: sentAt + timing.leaseTTL,
                dueAt: sentAt + timing.renewInterval, releasing: entry.releasing)
            if entry.releasing { return releaseIfIdle(room, now: now) }
            // Owned before unfollowed: the relayed clients join the room here, then the relay goes.
            if case .relayed = entry.role { return [.own(room, state: snapshot), .unfollow(room)] }
            return [.own(room, state: snapshot)]
        case .held(let owner):
            if entry.releasing {
                rooms[room] = nil
                return []
            }
            rooms[room]!.dueAt = now + timing.claimRetry
            if entry.role == .relayed(owner: owner) { return [] }
            rooms[room]!.role = .relayed(owner: owner)
            return [.follow(room, owner: owner)]
        case .failed:
            if entry.releasing || entry.role == .claiming {
                // Nobody here is served yet: the clients that asked are refused and may retry.
                rooms[room] = nil
                return entry.releasing ? [] : [.unavailable(room)]
            }
            rooms[room]!.dueAt = now + timing.claimRetry
            return []
        }
    }

    package mutating func renewAnswered(_ room: String, _ answer: WriteAnswer, now: Double) -> [OwnershipEffect] {
        guard let entry = rooms[room], entry.role == .owned, let sentAt = entry.requestSentAt else { return [] }
        rooms[room]!.requestSentAt = nil
        switch answer {
        case .written(let revision):
            rooms[room]!.leaseRevision = revision
            rooms[room]!.validUntil = sentAt + timing.leaseTTL
            rooms[room]!.dueAt = sentAt + timing.renewInterval
            // A write that failed earlier goes again now that the store answers.
            if entry.inFlight == nil, let state = entry.pendingState { return save(room, state: state, now: now) }
            return releaseIfIdle(room, now: now)
        case .refused:
            rooms[room] = nil
            return [.lose(room)]
        case .failed:
            // The store is out of reach: try again at once; the lease runs out at `validUntil`.
            rooms[room]!.dueAt = now
            return []
        }
    }

    package mutating func writeAnswered(_ room: String, _ answer: WriteAnswer, now: Double) -> [OwnershipEffect] {
        guard var entry = rooms[room], entry.role == .owned, let sent = entry.inFlight else { return [] }
        entry.inFlight = nil
        switch answer {
        case .written(let revision):
            entry.stateRevision = revision
        case .refused:
            // Another node wrote since: it owns the room now, whatever our lease says.
            rooms[room] = nil
            return [.lose(room)]
        case .failed:
            // Kept (unless newer state came) and tried again at the next renewal that succeeds;
            // at a stop it is given up, since the store is out of reach.
            entry.pendingState = entry.releasing ? nil : entry.pendingState ?? sent
            rooms[room] = entry
            return releaseIfIdle(room, now: now)
        }
        rooms[room] = entry
        if let next = entry.pendingState { return save(room, state: next, now: now) }
        return releaseIfIdle(room, now: now)
    }

    /// An owned room that is being released lets go once no write of it is on its way.
    private mutating func releaseIfIdle(_ room: String, now: Double) -> [OwnershipEffect] {
        guard let entry = rooms[room], entry.releasing, entry.inFlight == nil, entry.pendingState == nil
        else { return [] }
        rooms[room] = nil
        guard entry.wantedAgain && !stopping else { return [.release(room, revision: entry.leaseRevision)] }
        // Let go and asked for at once: claimed afresh, since another node may take it between.
        rooms[room] = Entry(role: .claiming, requestSentAt: now)
        return [.release(room, revision: entry.leaseRevision), .claim(room)]
    }
}

/// What the store said to a claim (a lease created, then the state read and written at once so an
/// earlier owner's late write is refused).
package enum ClaimAnswer: Equatable, Sendable {
    /// The lease is ours at `lease`; the state is at `state`, with the room's settled state if any.
    case won(lease: UInt64, state: UInt64, snapshot: String?)
    /// Another node holds the lease.
    case held(by: String)
    /// The store did not answer (timeout, not connected).
    case failed
}

/// What the store said to a write at a revision (a renewal or a state write).
package enum WriteAnswer: Equatable, Sendable {
    case written(revision: UInt64)
    /// Someone wrote since, or the key is gone: the room is not ours.
    case refused
    case failed
}

package enum OwnershipEffect: Equatable, Sendable {
    /// Create the room's lease; if made, read its state and write it back at its revision.
    case claim(String)
    /// Update the lease at this revision.
    case renew(String, revision: UInt64)
    /// Write the room's settled state at this revision.
    case write(String, state: String, revision: UInt64)
    /// Delete the lease at this revision: another node may claim the room at once.
    case release(String, revision: UInt64)
    /// The room is ours: serve it here, restored from this state (nil: a fresh room).
    case own(String, state: String?)
    /// The room is `owner`'s: relay it to this node's clients.
    case follow(String, owner: String)
    case unfollow(String)
    /// The room is no longer ours: stop serving it and drop its clients (they reconnect).
    case lose(String)
    /// The store could not be asked: the clients waiting for this room are refused for now.
    case unavailable(String)
}
