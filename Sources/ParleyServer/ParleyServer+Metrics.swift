import ParleyChannels
import ParleyNet

extension ParleyServer {
    /// The address `/metrics` has to itself (`--metrics-address`), once started.
    public var metricsAddress: SocketAddress? { metricsHTTP?.localAddress }

    /// A server on the same loops answering only `GET /metrics`, for `--metrics-address`;
    /// nil without one. It writes no access log lines: a scraper's visits every few seconds
    /// would drown the requests worth reading.
    static func metricsServer(
        options: ServeOptions, config: ChannelsConfig?, group: EventLoopGroup,
        sources: ServerRoutes.MetricsSources
    ) -> HTTPServer? {
        guard let listen = options.metricsListen else { return nil }
        var routes = HTTPRoutes()
        ServerRoutes.mountMetrics(
            on: &routes, sources,
            access: MetricsAccess(options: options, config: config, listenerHost: listen.host))
        var configuration = HTTPServerConfiguration(
            host: listen.host, port: listen.port,
            serverName: "parley/\(ParleyVersion.string)")
        configuration.maxConnections = 64
        return HTTPServer(group: group, configuration: configuration, routes: routes)
    }

    /// Binds the metrics listener, when there is one.
    func startMetricsListener() throws(ServerStartError) {
        guard let metricsHTTP, let address = options.metricsAddress else { return }
        do throws(NetError) {
            try metricsHTTP.start()
        } catch {
            throw ServerStartError(
                code: error.code == .addressInUse ? "metrics_address_in_use" : "metrics_listen",
                message: "could not listen on --metrics-address \(address): \(error)")
        }
    }
}
