import ParleyPlatform

/// Where the store reads the time it stamps rows with (milliseconds since the Unix epoch).
public struct StoreClock: Sendable {
    /// Returns the current time in milliseconds since the Unix epoch.
    public let now: @Sendable () -> Int64

    /// A clock that answers with `now()`.
    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The operating system's real-time clock.
    public static let system = StoreClock {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }
}
