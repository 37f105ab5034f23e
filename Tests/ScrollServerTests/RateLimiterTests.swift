import Testing

@testable import ScrollServer

// docs/PROTOCOL.md: beyond the rate input is dropped and `rate_limited` is sent at most once a second.
// Times are binary-exact so the token arithmetic is too.

@Suite("Rate limit and its notice")
struct RateLimiterTests {
    @Test("a burst is admitted; beyond it input is dropped, with a notice at most once a second")
    func noticeOncePerSecond() {
        var limiter = RateLimiter(rate: 1, burst: 2, now: 0)
        let times = [0, 0, 0, 0, 0.5, 0.75, 1.0, 1.0, 1.5, 2.0, 2.0]
        let seen = times.map { limiter.admit(now: $0) }
        #expect(
            seen == [
                .accepted, .accepted, .droppedWithNotice, .dropped, .dropped, .dropped,
                .accepted, .droppedWithNotice, .dropped, .accepted, .droppedWithNotice,
            ])
        #expect(limiter.dropped == 7)
    }

    @Test("tokens come back at the rate, never beyond the burst")
    func refill() {
        var limiter = RateLimiter(rate: 4, burst: 4, now: 10)
        let burst = (0..<5).map { _ in limiter.admit(now: 10) }
        #expect(burst == [.accepted, .accepted, .accepted, .accepted, .droppedWithNotice])
        let quarterSecondLater = [limiter.admit(now: 10.25), limiter.admit(now: 10.25)]
        #expect(quarterSecondLater == [.accepted, .dropped])
        let longIdle = (0..<5).map { _ in limiter.admit(now: 1000) }
        #expect(longIdle == [.accepted, .accepted, .accepted, .accepted, .droppedWithNotice])
    }
}
