/// Counts of durations in fixed buckets — how long the store's fsyncs took — for `/metrics`,
/// where a slow disk shows as counts moving to the upper buckets.
public struct DurationHistogram: Sendable, Hashable {
    /// Upper bounds of the buckets in microseconds, ascending; a last bucket holds the rest.
    public static let boundsMicroseconds: [Int] = [
        100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000,
        50_000, 100_000, 250_000, 500_000, 1_000_000
    ]

    /// Observations per bucket (not cumulative): `counts[i]` took at most `boundsMicroseconds[i]`
    /// and more than the bound before; the last entry counts those above every bound.
    public private(set) var counts = [Int](repeating: 0, count: DurationHistogram.boundsMicroseconds.count + 1)
    /// Observations in all.
    public private(set) var count = 0
    /// Sum of all observations, in microseconds.
    public private(set) var sumMicroseconds = 0

    /// An empty histogram.
    public init() {}

    /// Adds one observation of `nanoseconds`.
    public mutating func record(nanoseconds: UInt64) {
        let microseconds = Int(min(nanoseconds / 1_000, UInt64(Int.max)))
        var bucket = Self.boundsMicroseconds.count
        for (index, bound) in Self.boundsMicroseconds.enumerated() where microseconds <= bound {
            bucket = index
            break
        }
        counts[bucket] += 1
        count += 1
        sumMicroseconds += microseconds
    }

    /// Observations at or below each bound, as Prometheus buckets count them (the last: all).
    public var cumulativeCounts: [Int] {
        var running = 0
        return counts.map {
            running += $0; return running
        }
    }
}
