import ParleyWire

/// The Pusher-compatible channels service, ready to be mounted on an HTTP server:
/// WebSocket sessions at `/app/{key}`, the HTTP API at `/apps/{id}/...` and
/// `/users/{id}/terminate_connections`, and Prometheus text for `/metrics`.
///
/// Composition (once per process):
/// ```
/// let service = ChannelsService(config: config, loops: group.loops, clock: monotonicMillis, wallClock: unixMillis)
/// // WebSocket upgrade on GET /app/{key}?protocol=7 — on the connection's loop:
/// let session = service.openSession(path: path, query: query, transport: ws, loopIndex: loop.index)
/// //   text frame → session.receiveText(bytes, now:); binary → session.receiveBinary(now:)
/// //   ping/pong → session.noteActivity(now:); timer at session.tick(now:) → next deadline
/// //   socket closed → session.transportClosed()
/// // HTTP: if PusherAPI.handles(path: path) → service.handleAPI(PusherAPIRequest(...))
/// // GET /metrics → service.metricsText(); every second → service.tick()
/// ```
public final class ChannelsService: Sendable {
    /// The configuration the service runs with.
    public let config: ChannelsConfig
    /// The hosted apps.
    public let apps: AppRegistry
    /// The hub of this node's sockets.
    public let hub: LocalChannelHub
    /// The hub shared with other nodes over the bus, when this node is one of several.
    public let cluster: ClusterChannelHub?
    /// The hub sessions, the HTTP API and publishers use: the cluster's, else the local one.
    public var sharedHub: any ChannelHub { cluster ?? hub }
    /// The HTTP API handlers.
    public let api: PusherAPI
    /// Webhook delivery.
    public let webhooks: WebhookDispatcher
    /// Counters.
    public let metrics: ChannelsMetrics
    private let clock: @Sendable () -> Int64
    private let sharedApps = SharedAppConfigs()

    /// Creates the service over the server's event loops. `clock` is monotonic milliseconds,
    /// `wallClock` Unix milliseconds. `poster` sends webhooks (the server passes one on its
    /// event loops; without one, deliveries fail and are retried until abandoned).
    public init(
        config: ChannelsConfig, loops: [any HubLoop], clock: @escaping @Sendable () -> Int64,
        wallClock: @escaping @Sendable () -> Int64, poster: any WebhookPoster = UnconnectedWebhookPoster(),
        cluster membership: ClusterMembership? = nil
    ) {
        let metrics = ChannelsMetrics()
        let webhooks = WebhookDispatcher(config: config, poster: poster, metrics: metrics, clock: clock, wallClock: wallClock)
        let hub = LocalChannelHub(loops: loops, clock: clock, webhooks: webhooks, metrics: metrics)
        let apps = AppRegistry(config)
        self.config = config
        self.apps = apps
        self.metrics = metrics
        self.webhooks = webhooks
        self.hub = hub
        self.clock = clock
        let cluster = membership.map {
            ClusterChannelHub(
                local: hub, nodeID: $0.nodeID, transport: $0.transport, apps: apps, clock: clock,
                timings: $0.timings, statistics: $0.statistics)
        }
        self.cluster = cluster
        self.api = PusherAPI(apps: apps, hub: cluster ?? hub, unixTime: { wallClock() / 1000 }, metrics: metrics)
    }

    /// The app key of a Pusher WebSocket path (`/app/{key}`), or nil when the path is not one.
    public static func appKey(fromPath path: String) -> String? {
        guard path.hasPrefix("/app/") else { return nil }
        let key = path.dropFirst("/app/".count)
        guard !key.isEmpty, !key.contains("/") else { return nil }
        return PusherQuery.percentDecode(key) ?? String(key)
    }

    /// Starts the session of an upgraded WebSocket at `/app/{key}`, on its loop.
    /// Unknown key (4001), disabled app (4003), quota (4004) and protocol problems
    /// (4007/4008) are answered on the transport, which is closed; the result is then nil.
    public func openSession(path: String, query: PusherQuery, transport: any PusherTransport, loopIndex: Int) -> PusherSession? {
        func refuse(_ code: PusherErrorCode, _ message: String) -> PusherSession? {
            for action in PusherConnection.refusal(code, message: message) {
                switch action {
                case .send(let frame): transport.sendText(frame)
                case .close(let code, let reason): transport.close(code: code, reason: reason)
                default: break
                }
            }
            return nil
        }
        guard let key = Self.appKey(fromPath: path) else { return refuse(.pathNotFound, "Path not found; connect to /app/{key}") }
        guard let app = apps.app(key: key) else { return refuse(.unknownApp, "Could not find app by key \(key)") }
        if let problem = PusherConnection.checkProtocol(query["protocol"]) {
            return refuse(
                problem, problem == .noProtocol ? "No protocol version given" : "Unsupported protocol version \(query["protocol"] ?? "")")
        }
        let session = PusherSession(
            sharedApp: sharedApps.shared(app), config: config, loopIndex: loopIndex, hub: sharedHub,
            transport: transport, webhooks: webhooks, metrics: metrics, now: clock(), registry: apps)
        return session.start() ? session : nil
    }

    /// Answers an HTTP API request.
    public func handleAPI(_ request: PusherAPIRequest) -> PusherAPIResponse { api.handle(request) }

    /// The refusal of an HTTP API request judged from its head, before its body is read; nil
    /// when the body should be read (see ``PusherAPI/refusalBeforeBody(_:)``).
    public func apiRefusalBeforeBody(_ request: PusherAPIRequest) -> PusherAPIResponse? {
        api.refusalBeforeBody(request)
    }

    /// The `/metrics` body (Prometheus text format 0.0.4), every family labelled by app.
    public func metricsText() -> String {
        let hosted = apps.apps
        let text = metrics.render(apps: hosted.map(\.id), channels: hub.channelCounts(apps: hosted))
        guard let cluster else { return text }
        return text + cluster.statistics.render(node: cluster.nodeID)
    }

    /// Periodic work (throttled subscription counts); call about once a second from any thread.
    public func tick() {
        hub.tick(apps: apps)
        cluster?.tick()
    }
}
