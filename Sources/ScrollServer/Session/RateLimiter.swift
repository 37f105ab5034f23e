/// Input admission for one client: a token bucket (`rate` tokens per second, holding at
/// most `burst`), and a `rate_limited` notice at most once a second for what it drops.
struct RateLimiter {
    enum Admission: Equatable { case accepted, dropped, droppedWithNotice }

    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: Double
    private var lastNotice = -Double.infinity
    private(set) var dropped = 0

    init(rate: Double, burst: Double, now: Double) {
        self.rate = rate; self.burst = burst; tokens = burst; last = now
    }

    /// Whether the bucket is full again by `now`: this limiter remembers nothing worth keeping.
    func isFull(now: Double) -> Bool { tokens + (now - last) * rate >= burst }

    mutating func admit(now: Double) -> Admission {
        tokens = min(burst, tokens + (now - last) * rate)
        last = now
        if tokens >= 1 {
            tokens -= 1
            return .accepted
        }
        dropped += 1
        guard now - lastNotice >= 1 else { return .dropped }
        lastNotice = now
        return .droppedWithNotice
    }
}
