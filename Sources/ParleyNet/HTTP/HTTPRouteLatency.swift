import Synchronization

/// Request latency histograms, one per route (``HTTPRoutes/templates``), kept by the loops
/// that serve the requests.
///
/// Each loop owns a row of atomic cells that only its thread writes, with a relaxed load and
/// store (no read-modify-write, no lock, no cache line shared with another loop); a scrape
/// reads every row and adds them up. A reader may see one request's bucket before its sum:
/// the figures are a moment's approximation, as any scrape is, and each bucket is exact.
public final class HTTPRouteLatency: @unchecked Sendable {
    // @unchecked: the rows are raw allocations of atomics; each row is written only from its loop.

    /// The routes, by index.
    public let templates: [HTTPRouteTemplate]
    /// The buckets of every histogram.
    public let buckets: LatencyBuckets
    /// Cells per route: one per bucket, then the sum in microseconds.
    private let stride: Int
    private let rows: [UnsafeMutablePointer<Atomic<Int>>]
    private let cellsPerRow: Int

    /// One histogram per template for each of `loops` loops.
    public init(templates: [HTTPRouteTemplate], loops: Int, buckets: LatencyBuckets = .standard) {
        self.templates = templates
        self.buckets = buckets
        stride = buckets.count + 1
        // Padded to whole 128-byte blocks, so no two loops' rows share a cache line (or its pair).
        let cells = max(1, templates.count * (buckets.count + 1))
        let cellsPerRow = (cells + 15) / 16 * 16
        self.cellsPerRow = cellsPerRow
        rows = (0..<max(1, loops)).map { _ in
            let row = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: cellsPerRow)
            for cell in 0..<cellsPerRow { (row + cell).initialize(to: Atomic<Int>(0)) }
            return row
        }
    }

    deinit {
        for row in rows {
            row.deinitialize(count: cellsPerRow)
            row.deallocate()
        }
    }

    /// Counts one request of route `route` that took `micros`, on loop `loop`. Call only from
    /// that loop's thread (the single writer of its row).
    @inline(__always)
    public func record(loop: Int, route: Int, microseconds micros: Int) {
        guard rows.indices.contains(loop), templates.indices.contains(route) else { return }
        let base = rows[loop] + route * stride
        Self.bump(base + buckets.index(ofMicroseconds: micros), by: 1)
        Self.bump(base + buckets.count, by: micros)
    }

    @inline(__always)
    private static func bump(_ cell: UnsafeMutablePointer<Atomic<Int>>, by amount: Int) {
        cell.pointee.store(cell.pointee.load(ordering: .relaxed) &+ amount, ordering: .relaxed)
    }

    /// One route's histogram summed over the loops.
    public struct Histogram: Sendable, Equatable {
        /// The route.
        public var template: HTTPRouteTemplate
        /// Requests per bucket (not cumulative), the open bucket last.
        public var counts: [Int]
        /// Total time of those requests in microseconds.
        public var sumMicroseconds: Int
        /// Requests counted.
        public var count: Int { counts.reduce(0, +) }

        /// A histogram's figures.
        public init(template: HTTPRouteTemplate, counts: [Int], sumMicroseconds: Int) {
            self.template = template
            self.counts = counts
            self.sumMicroseconds = sumMicroseconds
        }
    }

    /// The histograms of the routes that have served at least one request, in route order.
    public func snapshot() -> [Histogram] {
        var out: [Histogram] = []
        for (route, template) in templates.enumerated() {
            var counts = [Int](repeating: 0, count: buckets.count)
            var sum = 0
            for row in rows {
                let base = row + route * stride
                for bucket in 0..<buckets.count { counts[bucket] += (base + bucket).pointee.load(ordering: .relaxed) }
                sum += (base + buckets.count).pointee.load(ordering: .relaxed)
            }
            if counts.contains(where: { $0 > 0 }) {
                out.append(Histogram(template: template, counts: counts, sumMicroseconds: sum))
            }
        }
        return out
    }
}
