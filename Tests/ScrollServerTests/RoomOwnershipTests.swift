import Testing

@testable import ScrollServer

/// Ownership as transcripts on a fake clock (docs/CLUSTER.md): a 3 s lease renewed every second,
/// claims retried every second, writes one at a time at the owner's revision.
@Suite struct RoomOwnershipTests {
    private func owner(at now: Double = 0) -> RoomOwnership {
        var ownership = RoomOwnership(node: "a")
        #expect(ownership.want("lobby", now: now) == [.claim("lobby")])
        #expect(
            ownership.claimAnswered("lobby", .won(lease: 7, state: 3, snapshot: "s1"), now: now + 0.01)
                == [.own("lobby", state: "s1")])
        return ownership
    }

    @Test func aClaimWonServesTheRoomWithItsStateAndRenewsEverySecond() {
        var o = owner()
        #expect(o.role(of: "lobby") == .owned)
        #expect(o.want("lobby", now: 0.5) == [])
        #expect(o.tick(now: 0.999) == [])
        #expect(o.nextDue == 1.0)
        #expect(o.tick(now: 1.0) == [.renew("lobby", revision: 7)])
        // No second renewal while one is on its way.
        #expect(o.tick(now: 1.5) == [])
        #expect(o.renewAnswered("lobby", .written(revision: 9), now: 1.02) == [])
        #expect(o.tick(now: 1.999) == [])
        #expect(o.tick(now: 2.0) == [.renew("lobby", revision: 9)])
    }

    @Test func aRoomHeldElsewhereIsRelayedAndClaimedOnceItsLeaseIsGone() {
        var o = RoomOwnership(node: "b")
        #expect(o.want("lobby", now: 10) == [.claim("lobby")])
        #expect(o.claimAnswered("lobby", .held(by: "a"), now: 10.01) == [.follow("lobby", owner: "a")])
        #expect(o.role(of: "lobby") == .relayed(owner: "a"))
        #expect(o.tick(now: 11.0) == [])
        #expect(o.tick(now: 11.01) == [.claim("lobby")])
        #expect(o.claimAnswered("lobby", .held(by: "a"), now: 11.02) == [])
        #expect(o.tick(now: 12.01) == [])
        #expect(o.tick(now: 12.02) == [.claim("lobby")])
        #expect(
            o.claimAnswered("lobby", .won(lease: 12, state: 40, snapshot: "settled"), now: 12.03)
                == [.own("lobby", state: "settled"), .unfollow("lobby")])
        #expect(o.save("lobby", state: "next", now: 12.5) == [.write("lobby", state: "next", revision: 40)])
    }

    @Test func aLeaseNotRenewedForThreeSecondsFromTheLastRenewalSentIsLost() {
        var o = owner()
        #expect(o.tick(now: 1.0) == [.renew("lobby", revision: 7)])
        #expect(o.renewAnswered("lobby", .written(revision: 8), now: 1.01) == [])
        // Renewal sent at 2.0 finds the store out of reach; tried again at each tick after.
        #expect(o.tick(now: 2.0) == [.renew("lobby", revision: 8)])
        #expect(o.renewAnswered("lobby", .failed, now: 2.5) == [])
        #expect(o.tick(now: 2.6) == [.renew("lobby", revision: 8)])
        #expect(o.renewAnswered("lobby", .failed, now: 3.2) == [])
        // Valid until the last renewal that succeeded was sent (1.0) plus 3 s.
        #expect(o.nextDue == 3.2)
        #expect(o.tick(now: 3.999) == [.renew("lobby", revision: 8)])
        #expect(o.tick(now: 4.0) == [.lose("lobby")])
        #expect(o.role(of: "lobby") == nil)
        // A late answer changes nothing; a save is not sent for a room not ours.
        #expect(o.renewAnswered("lobby", .written(revision: 9), now: 4.1) == [])
        #expect(o.save("lobby", state: "late", now: 4.2) == [])
    }

    @Test func aPausedOwnerLetsGoAtItsFirstTickWithoutWriting() {
        var o = owner()
        // SIGSTOP from 0.5 to 10: the first thing it does is tick.
        #expect(o.tick(now: 10) == [.lose("lobby")])
        #expect(o.save("lobby", state: "stale", now: 10) == [])
    }

    @Test func aRefusedRenewalOrWriteLosesTheRoom() {
        var renewing = owner()
        #expect(renewing.tick(now: 1) == [.renew("lobby", revision: 7)])
        #expect(renewing.renewAnswered("lobby", .refused, now: 1.01) == [.lose("lobby")])

        var writing = owner()
        #expect(writing.save("lobby", state: "x", now: 0.2) == [.write("lobby", state: "x", revision: 3)])
        #expect(writing.writeAnswered("lobby", .refused, now: 0.21) == [.lose("lobby")])
        #expect(writing.role(of: "lobby") == nil)
    }

    @Test func writesGoOneAtATimeAtTheRevisionTheLastOneMade() {
        var o = owner()
        #expect(o.save("lobby", state: "v1", now: 0.1) == [.write("lobby", state: "v1", revision: 3)])
        #expect(o.save("lobby", state: "v2", now: 0.11) == [])
        #expect(o.save("lobby", state: "v3", now: 0.12) == [])
        // Only the latest waiting state goes, at the revision v1 made.
        #expect(
            o.writeAnswered("lobby", .written(revision: 5), now: 0.13) == [.write("lobby", state: "v3", revision: 5)])
        #expect(o.writeAnswered("lobby", .written(revision: 6), now: 0.14) == [])
        #expect(o.save("lobby", state: "v4", now: 0.2) == [.write("lobby", state: "v4", revision: 6)])
    }

    @Test func aFailedWriteGoesAgainAfterTheNextRenewalThatSucceeds() {
        var o = owner()
        #expect(o.save("lobby", state: "v1", now: 0.1) == [.write("lobby", state: "v1", revision: 3)])
        #expect(o.writeAnswered("lobby", .failed, now: 0.6) == [])
        #expect(o.tick(now: 1) == [.renew("lobby", revision: 7)])
        #expect(
            o.renewAnswered("lobby", .written(revision: 8), now: 1.01) == [.write("lobby", state: "v1", revision: 3)])
    }

    @Test func releasingWaitsForTheLastWriteThenDeletesTheLeaseAtItsRevision() {
        var o = owner()
        #expect(o.save("lobby", state: "final", now: 0.3) == [.write("lobby", state: "final", revision: 3)])
        #expect(o.releaseAll(now: 0.31) == [])
        #expect(o.writeAnswered("lobby", .written(revision: 4), now: 0.32) == [.release("lobby", revision: 7)])
        #expect(o.released)
    }

    @Test func releasingAllLetsGoOfOwnedRoomsAndForgetsRelayedOnes() {
        var o = owner()
        #expect(o.want("hall", now: 0.1) == [.claim("hall")])
        #expect(o.claimAnswered("hall", .held(by: "b"), now: 0.2) == [.follow("hall", owner: "b")])
        #expect(o.want("attic", now: 0.3) == [.claim("attic")])
        #expect(o.releaseAll(now: 0.4) == [.unfollow("hall"), .release("lobby", revision: 7)])
        #expect(!o.released)
        // The claim on its way: won, then let go at once.
        #expect(
            o.claimAnswered("attic", .won(lease: 2, state: 1, snapshot: nil), now: 0.5) == [
                .release("attic", revision: 2)
            ])
        #expect(o.released)
    }

    @Test func aClaimTheStoreCouldNotAnswerRefusesTheWaitingClients() {
        var o = RoomOwnership(node: "a")
        #expect(o.want("lobby", now: 0) == [.claim("lobby")])
        #expect(o.claimAnswered("lobby", .failed, now: 2) == [.unavailable("lobby")])
        #expect(o.role(of: "lobby") == nil)
        #expect(o.want("lobby", now: 3) == [.claim("lobby")])
    }

    @Test func anUnwantedRelayIsForgottenAndAnUnwantedOwnedRoomReleased() {
        var o = owner()
        #expect(o.unwanted("lobby", now: 5) == [])  // lease ran out at 3 s: not ours to release
        var p = owner()
        #expect(p.unwanted("lobby", now: 0.5) == [.release("lobby", revision: 7)])
        var q = RoomOwnership(node: "b")
        _ = q.want("hall", now: 0)
        _ = q.claimAnswered("hall", .held(by: "a"), now: 0.1)
        #expect(q.unwanted("hall", now: 0.2) == [.unfollow("hall")])
        #expect(q.tick(now: 5) == [])
    }

    @Test func aRoomAskedForWhileItIsBeingLetGoIsClaimedAgainOnceItIs() {
        var o = owner()
        #expect(o.save("lobby", state: "last", now: 0.2) == [.write("lobby", state: "last", revision: 3)])
        #expect(o.unwanted("lobby", now: 0.3) == [])
        #expect(o.want("lobby", now: 0.4) == [])
        #expect(
            o.writeAnswered("lobby", .written(revision: 4), now: 0.5) == [
                .release("lobby", revision: 7), .claim("lobby"),
            ])
        #expect(o.role(of: "lobby") == .claiming)
        #expect(
            o.claimAnswered("lobby", .won(lease: 9, state: 5, snapshot: "last"), now: 0.6) == [
                .own("lobby", state: "last")
            ])
    }
}
