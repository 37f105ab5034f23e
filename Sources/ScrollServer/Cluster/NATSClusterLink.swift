import Dispatch
import Logging
import NATSClient
import Synchronization

/// The cluster's store and subjects on NATS JetStream (docs/CLUSTER.md). Leases live in a bucket
/// whose TTL expires what is not renewed; rooms' state in a bucket without one, each write at
/// the revision the owner last saw. Key-value requests block, so they run one after another on
/// a queue of their own, and each answer is handed to `answered` (the service thread's inbox).
/// Publishing only copies into nats.c's buffer, so it happens on the caller's thread.
package final class NATSClusterLink: ClusterLink, @unchecked Sendable {
    package var answered: (@Sendable (ClusterAnswer) -> Void)?
    private let connection: NATSConnection
    private let leases: KeyValueBucket
    private let states: KeyValueBucket
    private let node: String
    private let logger: Logger
    private let queue = DispatchQueue(label: "cluster-store")
    /// Subscriptions by subject: service thread only.
    private var subscriptions: [String: NATSSubscription] = [:]
    private let tally = Mutex(Counts())

    /// What `/metrics` tells of the store and the subjects.
    package struct Counts: Equatable, Sendable {
        /// Store requests that failed for want of an answer (each is tried again by its owner).
        package var failedRequests = 0
        /// Messages that could not be published (NATS not connected): relays catch up from the next.
        package var droppedPublishes = 0
        /// Messages received that were not relay messages.
        package var unreadable = 0
    }
    package var counts: Counts { tally.withLock { $0 } }

    package var unreachable: String? {
        let status = connection.status
        return status == .connected ? nil : "NATS is not connected (\(status))"
    }

    package static let leaseBucket = "widget-leases"
    package static let stateBucket = "widget-rooms"

    /// Opens (or makes) both buckets. Throws when NATS is not reachable now: a node starts once
    /// its store answers, since it could serve no room before.
    package init(connection: NATSConnection, config: ClusterConfig, logger: Logger) throws(NATSError) {
        self.connection = connection
        node = config.node
        self.logger = logger
        leases = try KeyValueBucket(
            connection: connection,
            config: .init(name: Self.leaseBucket, ttl: config.timing.leaseTTL, replicas: config.replicas))
        states = try KeyValueBucket(
            connection: connection, config: .init(name: Self.stateBucket, replicas: config.replicas))
    }

    // MARK: the store

    package func send(_ request: OwnershipEffect) {
        queue.async { [self] in
            let answer: ClusterAnswer?
            switch request {
            case .claim(let room): answer = .claim(room, claim(room))
            case let .renew(room, revision):
                answer = .renew(room, write(room, Array(node.utf8), at: revision, in: leases))
            case let .write(room, state, revision):
                answer = .write(room, write(room, Array(state.utf8), at: revision, in: states))
            case let .release(room, revision):
                do { try leases.delete(room, lastRevision: revision) } catch {
                    logger.debug("lease not released", metadata: ["room": "\(room)", "reason": "\(error)"])
                }
                answer = nil
            default:
                answer = nil
            }
            if let answer { answered?(answer) }
        }
    }

    /// The lease if nobody holds it; then the state read and written back at its revision, so a
    /// write from an earlier owner that has not heard it lost the room is refused from now on.
    private func claim(_ room: String) -> ClaimAnswer {
        let lease: UInt64
        do {
            lease = try leases.create(room, Array(node.utf8))
        } catch .conflict {
            let holder = (try? leases.get(room)).flatMap { $0 }.map { String(decoding: $0.value, as: UTF8.self) }
            return .held(by: holder ?? "?")
        } catch {
            return failed("claim", room, error)
        }
        // A write landing between the read and the fencing write is an earlier owner's last one:
        // read again, at most a few times.
        for _ in 0..<3 {
            do {
                if let state = try states.get(room) {
                    let revision = try states.update(room, state.value, lastRevision: state.revision)
                    let text = String(decoding: state.value, as: UTF8.self)
                    return .won(lease: lease, state: revision, snapshot: text.isEmpty ? nil : text)
                }
                return .won(lease: lease, state: try states.create(room, []), snapshot: nil)
            } catch .conflict {
                continue
            } catch {
                break
            }
        }
        try? leases.delete(room, lastRevision: lease)
        return failed("claim", room, NATSError.transient("the room's state kept changing or did not answer"))
    }

    private func write(_ room: String, _ value: [UInt8], at revision: UInt64, in bucket: KeyValueBucket) -> WriteAnswer
    {
        do {
            return .written(revision: try bucket.update(room, value, lastRevision: revision))
        } catch .conflict {
            return .refused
        } catch {
            _ = failed("write \(bucket.name)", room, error)
            return .failed
        }
    }

    private func failed(_ what: String, _ room: String, _ error: NATSError) -> ClaimAnswer {
        tally.withLock { $0.failedRequests += 1 }
        logger.warning(
            "cluster store request failed", metadata: ["request": "\(what)", "room": "\(room)", "reason": "\(error)"])
        return .failed
    }

    // MARK: the subjects

    /// `widgets.room.<room>.in` (relays to the owner) and `.out` (the owner to its relays). Room
    /// names are letters, digits, `_` and `-`: one subject token each.
    private static func subject(_ room: String, _ direction: String) -> String { "widgets.room.\(room).\(direction)" }

    package func follow(_ room: String) {
        subscribe(Self.subject(room, "out")) { .outbound(room, try RelayOutbound(decoding: $0)) }
    }
    package func serve(_ room: String) {
        subscribe(Self.subject(room, "in")) { .inbound(room, try RelayInbound(decoding: $0)) }
    }
    package func unfollow(_ room: String) {
        subscriptions.removeValue(forKey: Self.subject(room, "out"))?.unsubscribe()
    }
    package func unserve(_ room: String) { subscriptions.removeValue(forKey: Self.subject(room, "in"))?.unsubscribe() }

    private func subscribe(_ subject: String, _ decode: @escaping @Sendable ([UInt8]) throws -> ClusterAnswer) {
        guard subscriptions[subject] == nil else { return }
        do {
            subscriptions[subject] = try connection.subscribe(subject) { [weak self] message in
                guard let self else { return }
                do { answered?(try decode(message.payload)) } catch {
                    tally.withLock { $0.unreadable += 1 }
                }
            }
        } catch {
            logger.error("cannot subscribe", metadata: ["subject": "\(subject)", "reason": "\(error)"])
        }
    }

    package func forward(_ room: String, _ message: RelayInbound) { publish(Self.subject(room, "in"), message.encoded) }
    package func broadcast(_ room: String, _ message: RelayOutbound) {
        publish(Self.subject(room, "out"), message.encoded)
    }

    private func publish(_ subject: String, _ bytes: [UInt8]) {
        do { try connection.publish(subject, bytes) } catch { tally.withLock { $0.droppedPublishes += 1 } }
    }

    /// Unsubscribes and closes the connection (after the service loop ended).
    package func close() {
        queue.sync {}
        for subscription in subscriptions.values { subscription.unsubscribe() }
        subscriptions = [:]
        connection.close()
    }
}
