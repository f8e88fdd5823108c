import ParleyChannels
import ParleyChat
import ParleyNet
import ParleyStore
import ParleyWire

/// The routes every Parley server answers, whatever is mounted: health, version, metrics.
enum ServerRoutes {
    /// What `/metrics` reports, wherever it is served.
    struct MetricsSources: Sendable {
        var channels: ChannelsService?
        var store: SQLChatStore?
        var edge: EdgeStatistics?
        var docs: DocumentRefusals?
        var chatHooks: ChatHookStatistics?

        /// The whole exposition.
        func render() -> String {
            var body = channels?.metricsText() ?? ""
            if let store { body += StoreMetrics.render(store.statistics) }
            if let edge { body += edge.render() }
            if let docs { body += docs.render() }
            if let chatHooks { body += chatHooks.render() }
            body += ProcessStatistics.current().render()
            body += ParleyVersion.buildInfoMetric()
            return body
        }
    }

    /// `/healthz`, `/version` and, unless the metrics have a listener of their own
    /// (`metricsElsewhere`), `/metrics`.
    static func mountOperational(
        on routes: inout HTTPRoutes, channels: ChannelsService?, store: SQLChatStore? = nil,
        edge: EdgeStatistics? = nil, docs: DocumentRefusals? = nil, chatHooks: ChatHookStatistics? = nil, metrics access: MetricsAccess,
        health: @escaping @Sendable () -> String = { #"{"status":"ok"}"# }, metricsElsewhere: Bool = false
    ) {
        routes.get("/healthz") { _, responder in
            responder.respond(.json(health()))
        }
        routes.get("/version") { _, responder in
            responder.respond(.json(#"{"name":"parley","version":"\#(ParleyVersion.string)"}"#))
        }
        guard !metricsElsewhere else { return }
        mountMetrics(
            on: &routes, MetricsSources(channels: channels, store: store, edge: edge, docs: docs, chatHooks: chatHooks), access: access)
    }

    /// `GET /metrics`, guarded by `access`.
    static func mountMetrics(on routes: inout HTTPRoutes, _ sources: MetricsSources, access: MetricsAccess) {
        routes.get("/metrics") { request, responder in
            guard access.admits(authorization: request.headers.first("Authorization")) else {
                let refusal = access.refusal
                var response = HTTPResponse.error(HTTPStatus(401), code: "metrics_token_required", message: refusal.message)
                for field in refusal.headers { response.headers.add(field.name, field.value) }
                responder.respond(response)
                return
            }
            var headers = HTTPHeaders()
            headers.add("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            responder.respond(status: .ok, headers: headers, body: Array(sources.render().utf8))
        }
    }
}
