#if canImport(Glibc)
    import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC: scene time comes from here, never from wall clocks.
package enum MonotonicClock {
    package static func now() -> Double { seconds(on: CLOCK_MONOTONIC) }
}

/// Unix time in seconds: only for stamps that outlive the process (a stored room's `updated`),
/// never for scene time (MonotonicClock).
package enum WallClock {
    package static func now() -> Double { seconds(on: CLOCK_REALTIME) }
}

private func seconds(on clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
