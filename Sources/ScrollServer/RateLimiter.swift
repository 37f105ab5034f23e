/// Token bucket: `rate` tokens per second, holding at most `burst`.
struct RateLimiter {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: Double

    init(rate: Double, burst: Double, now: Double) {
        self.rate = rate; self.burst = burst; tokens = burst; last = now
    }

    mutating func allow(now: Double) -> Bool {
        tokens = min(burst, tokens + (now - last) * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
