import CLinux

/// Nanoseconds on the monotonic clock (never jumps with wall-clock changes).
enum MonotonicClock {
    /// The current monotonic time in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 { clinux_monotonic_nanoseconds() }

    /// A duration as whole nanoseconds, clamped at zero.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
