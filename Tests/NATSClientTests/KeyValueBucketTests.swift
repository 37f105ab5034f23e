import Foundation
import NATSClient
import Testing

/// A JetStream key-value bucket on a real nats-server: the claims and fencing tokens the
/// cluster's room leases are made of.
@Suite struct KeyValueBucketTests {
    /// `create` claims an absent key; a second `create` loses with `.conflict`, the value intact.
    @Test func createClaimsAnAbsentKeyOnce() throws {
        try withBucket { bucket in
            #expect(try bucket.get("room.1") == nil)
            let revision = try bucket.create("room.1", Array("node-a".utf8))
            #expect(revision > 0)

            let lost = thrown { try bucket.create("room.1", Array("node-b".utf8)) }
            #expect(lost?.isConflict == true, "\(String(describing: lost))")
            #expect(lost?.description == "NATS conflict: create room.1 in test: the key exists (revision \(revision))")
            #expect(try bucket.get("room.1") == .init(value: Array("node-a".utf8), revision: revision))
        }
    }

    /// `update` at the key's revision writes and returns a newer one; at a stale revision it loses
    /// with `.conflict` and leaves the value as it was.
    @Test func updateIsFencedByTheRevision() throws {
        try withBucket { bucket in
            let first = try bucket.create("lease", [1])
            let second = try bucket.update("lease", [2], lastRevision: first)
            #expect(second > first)

            let stale = thrown { try bucket.update("lease", [3], lastRevision: first) }
            #expect(stale?.isConflict == true, "\(String(describing: stale))")
            #expect(
                stale?.description == "NATS conflict: update lease in test at revision \(first): the key is at another "
                    + "revision (wrong last sequence: \(second))")
            #expect(try bucket.get("lease") == .init(value: [2], revision: second))

            // Revision 0 would be a create to JetStream: refused before it is sent.
            let zero = thrown { try bucket.update("lease", [4], lastRevision: 0) }
            #expect(zero != nil && zero?.isConflict == false && zero?.isTransient == false)
        }
    }

    /// A deleted key reads as absent, `update` at its old revision loses, and `create` claims it
    /// again (over the delete marker).
    @Test func createAfterDeleteSucceeds() throws {
        try withBucket { bucket in
            let first = try bucket.create("k", [1])
            try bucket.delete("k")
            #expect(try bucket.get("k") == nil)

            let gone = thrown { try bucket.update("k", [2], lastRevision: first) }
            #expect(gone?.isConflict == true, "\(String(describing: gone))")

            let again = try bucket.create("k", [3])
            #expect(again > first)
            #expect(try bucket.get("k") == .init(value: [3], revision: again))
            #expect(thrown { try bucket.create("k", [4]) }?.isConflict == true)
        }
    }

    /// A delete at a revision happens only while the key is still there: a holder gives up its
    /// claim, and a holder that lost it cannot delete the winner's.
    @Test func deleteAtARevisionIsFenced() throws {
        try withBucket { bucket in
            let old = try bucket.create("k", [1])
            let current = try bucket.update("k", [2], lastRevision: old)

            let lost = thrown { try bucket.delete("k", lastRevision: old) }
            #expect(lost?.isConflict == true, "\(String(describing: lost))")
            #expect(try bucket.get("k")?.value == [2])

            try bucket.delete("k", lastRevision: current)
            #expect(try bucket.get("k") == nil)
        }
    }

    /// `put` writes whatever is there, each time at a higher revision; `keys()` lists the keys
    /// with a value, not the deleted ones.
    @Test func putAndKeys() throws {
        try withBucket { bucket in
            #expect(try bucket.keys() == [])
            let revisions = try ["a", "b", "c", "a"].map { key in try bucket.put(key, Array(key.utf8)) }
            #expect(revisions == revisions.sorted() && Set(revisions).count == 4)
            try bucket.delete("b")
            #expect(Set(try bucket.keys()) == ["a", "c"])
            #expect(try bucket.get("a")?.revision == revisions[3])
        }
    }

    /// The lease: with a 1 s TTL a key not rewritten goes after 1 s (not before) and can be
    /// claimed again, while a key renewed by `update` meanwhile stays.
    @Test func ttlExpiresWhatIsNotRenewed() throws {
        try withBucket(ttl: 1) { bucket in
            let start = Date()
            _ = try bucket.create("abandoned", [1])
            var renewed = try bucket.create("renewed", [1])

            var expiredAfter: Double?
            let expired = try eventually(timeout: 5) { () throws -> Bool in
                renewed = try bucket.update("renewed", [1], lastRevision: renewed)
                guard try bucket.get("abandoned") == nil else { return false }
                expiredAfter = Date().timeIntervalSince(start)
                return true
            }
            #expect(expired)
            #expect((expiredAfter ?? 0) >= 1.0, "expired after \(expiredAfter ?? 0) s")
            #expect(try bucket.get("renewed")?.revision == renewed)
            let reclaimed = try bucket.create("abandoned", [2])
            #expect(try bucket.get("abandoned") == .init(value: [2], revision: reclaimed))
        }
    }

    /// A bucket opened again with its settings is the same bucket; with other settings it is refused.
    @Test func openingAnExistingBucket() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let bucket = try nats.bucket("leases", ttl: 10)
        let revision = try bucket.put("k", [7])
        #expect(try nats.bucket("leases", ttl: 10).get("k")?.revision == revision)

        let other = thrown { try nats.bucket("leases", ttl: 20) }
        #expect(other != nil && other?.isTransient == false && other?.isConflict == false)
    }

    /// Keys and names nats.c would refuse are refused before anything is sent.
    @Test func invalidKeysAndNames() throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        let bucket = try nats.bucket()
        for key in ["", "a b", "a.*", "rooms.>", ".a", "a.", "a..b"] {
            let error = thrown { try bucket.put(key, [1]) }
            #expect(error != nil && error?.isTransient == false && error?.isConflict == false, "key \(key)")
        }
        for key in ["room.1", "a_b-c/d\\e=f"] { #expect(try bucket.create(key, [1]) > 0) }
        #expect(thrown { try nats.bucket("a.b") } != nil)
    }

    /// Runs `body` with a bucket on a nats-server of its own.
    private func withBucket(ttl: Double = 0, _ body: (KeyValueBucket) throws -> Void) throws {
        let nats = try LocalNATS()
        defer { nats.stop() }
        try body(nats.bucket(ttl: ttl))
    }
}
