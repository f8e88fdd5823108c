/// The fixed upper bounds of the request latency histograms, and which bucket a duration
/// falls in. Fixed so that every server, route and scrape adds up with every other.
public struct LatencyBuckets: Sendable, Equatable {
    /// Upper bounds in microseconds, ascending: 100 µs to 10 s. A duration above the last
    /// falls in the open bucket after them (`+Inf`).
    public let bounds: [Int]

    /// The buckets every server uses.
    public static let standard = LatencyBuckets(bounds: [
        100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000,
        1_000_000, 2_500_000, 5_000_000, 10_000_000
    ])

    /// Buckets with these ascending bounds (microseconds).
    public init(bounds: [Int]) {
        precondition(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "latency bounds must ascend")
        self.bounds = bounds
    }

    /// How many buckets a histogram keeps: one per bound plus the open one.
    public var count: Int { bounds.count + 1 }

    /// The bucket of a duration: the first whose bound is not below it (Prometheus' `le`),
    /// or the open bucket. Most requests are fast, so a scan from the small end is short.
    @inline(__always)
    public func index(ofMicroseconds micros: Int) -> Int {
        var index = 0
        while index < bounds.count, micros > bounds[index] { index += 1 }
        return index
    }

    /// Per-bucket counts made cumulative (what the exposition's `le` lines carry); the last
    /// is the total.
    public static func cumulative(_ counts: [Int]) -> [Int] {
        var running = 0
        return counts.map {
            running += $0; return running
        }
    }
}
