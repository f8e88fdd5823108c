import ParleyNet
import Synchronization

/// The server's edge figures for `/metrics`: the open-file limit, open connections and
/// connections refused at the caps. The routes are built before the HTTP server exists, so
/// the server is attached once it does.
final class EdgeStatistics: Sendable {
    private let server = Mutex<HTTPServer?>(nil)

    func attach(_ http: HTTPServer) { server.withLock { $0 = http } }

    /// Prometheus text for the figures.
    func render() -> String {
        var text = """
            # HELP parley_open_files_limit The process's open-file limit (RLIMIT_NOFILE, soft).
            # TYPE parley_open_files_limit gauge
            parley_open_files_limit \(FileDescriptorLimit.current)

            """
        guard let http = server.withLock({ $0 }) else { return text }
        let refused = http.refusedConnections
        text += """
            # HELP parley_http_connections Connections open now (HTTP and WebSocket).
            # TYPE parley_http_connections gauge
            parley_http_connections \(http.openConnections)
            # HELP parley_http_connections_refused_total Connections answered 503 at a cap.
            # TYPE parley_http_connections_refused_total counter
            parley_http_connections_refused_total{cap="server"} \(refused.serverFull)
            parley_http_connections_refused_total{cap="address"} \(refused.addressFull)

            """
        if let latency = http.routeLatency {
            text += RouteLatencyMetrics.render(latency.snapshot(), buckets: latency.buckets)
        }
        return text
    }
}
