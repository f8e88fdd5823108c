import ParleyPlatform

/// The real clock: the system's wall time and `Task.sleep`.
public struct SystemClock: ParleyClock {
    /// Creates the clock.
    public init() {}

    /// Milliseconds since the Unix epoch.
    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Waits `duration`; throws when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
