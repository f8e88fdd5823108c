import ParleyPlatform

/// The clocks the services are given: monotonic for timeouts, wall for signatures and webhooks.
enum ServerClock {
    /// Milliseconds on the monotonic clock (never jumps; for deadlines).
    @Sendable static func monotonicMilliseconds() -> Int64 { milliseconds(CLOCK_MONOTONIC) }

    /// Milliseconds since the Unix epoch (for timestamps other systems check).
    @Sendable static func unixMilliseconds() -> Int64 { milliseconds(CLOCK_REALTIME) }

    private static func milliseconds(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
