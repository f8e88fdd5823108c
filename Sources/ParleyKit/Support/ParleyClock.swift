/// Time for the SDK: wall-clock milliseconds for timestamps, and sleeping for timers
/// (typing expiry, debouncing, backoff). Tests substitute `ManualClock` (ParleyKitTesting).
public protocol ParleyClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func now() -> Int64
    /// Suspends for `duration`; throws when the task is cancelled.
    func sleep(for duration: Duration) async throws
}
