extension PrometheusText {
    /// Adds a histogram with its HELP and TYPE lines: one `_bucket` sample per upper bound `le`
    /// (cumulative counts, ending with `+Inf`), then `_sum` and `_count`.
    /// `bounds` and `cumulativeCounts` pair up; `cumulativeCounts` has one more entry, for `+Inf`.
    public mutating func addHistogram(
        _ name: String, _ help: String, bounds: [String], cumulativeCounts: [Int],
        sum: String, count: Int
    ) {
        var lines = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (index, total) in cumulativeCounts.enumerated() {
            let bound = index < bounds.count ? bounds[index] : "+Inf"
            lines += "\(name)_bucket{le=\"\(bound)\"} \(total)\n"
        }
        lines += "\(name)_sum \(sum)\n\(name)_count \(count)\n"
        append(lines)
    }
}
