#if canImport(Glibc)
    import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC: scene time comes from here, never from wall clocks.
package enum MonotonicClock {
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
