import CLinux

/// The monotonic clock every latency is measured with.
enum BenchClock {
    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> UInt64 { clinux_monotonic_nanoseconds() }
}
