/// The scene's random numbers (the roller's "random" button): SplitMix64 from a seed, so a
/// replay given the same seed draws the same numbers. The server seeds each new room and
/// records the seed in the room's trace (`# seed: N`); the core itself never reads a clock
/// or the system's randomness.
public final class Dice {
    public private(set) var seed: UInt64
    private var state: UInt64

    public init(seed: UInt64 = 0) {
        self.seed = seed
        state = seed
    }

    /// Starts over from `seed`.
    public func reseed(_ seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A uniform number in `range` (rejection sampling: no modulo bias).
    public func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        let limit = UInt64.max - UInt64.max % span
        while true {
            let x = nextRaw()
            if x < limit { return range.lowerBound + Int(x % span) }
        }
    }

    private func nextRaw() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
