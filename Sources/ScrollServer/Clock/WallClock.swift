#if canImport(Glibc)
    import Glibc
#endif

/// Unix time in seconds: only for stamps that outlive the process (a stored room's `updated`),
/// never for scene time (MonotonicClock).
package enum WallClock {
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
