import ParleyChannels
import ParleyNet

/// `parley_http_request_duration_seconds`: a histogram per route template and method, from
/// the request's head to its answer being queued (for a WebSocket, to the 101).
enum RouteLatencyMetrics {
    static let name = "parley_http_request_duration_seconds"

    /// The exposition of `histograms` (routes that served no request are left out).
    static func render(_ histograms: [HTTPRouteLatency.Histogram], buckets: LatencyBuckets) -> String {
        var out = PrometheusText()
        out.family(name, "histogram", "Time from a request's head to its answer, by route template and method.")
        let bounds = buckets.bounds.map { PrometheusText.decimal($0, 1_000_000) }
        for histogram in histograms {
            out.histogram(
                name, [("method", histogram.template.method), ("route", histogram.template.pattern)],
                bounds: bounds, counts: histogram.counts,
                sum: PrometheusText.decimal(histogram.sumMicroseconds, 1_000_000))
        }
        return out.text
    }
}
