import ParleyChannels
import ParleyChat
import ParleyNet
import ParleyStore
import ParleyWire

/// The composed Parley server: event loops, the HTTP/WebSocket server and the services mounted on it.
///
/// Threading: `start`, `shutdown` and `wait` may be called from any thread except the group's loops.
public final class ParleyServer: Sendable {
    /// The options the server was started with.
    public let options: ServeOptions
    /// The event loops.
    public let group: EventLoopGroup
    /// The Pusher-compatible channels service, when apps are configured.
    public let channels: ChannelsService?
    /// The chat service, when apps are configured and a store was given.
    public let chat: ChatService?
    private let docs: DocsMount?
    private let presenceRelay: PresenceRelay?
    private let http: HTTPServer
    /// The listener of `/metrics` alone (`--metrics-address`), when it has one.
    let metricsHTTP: HTTPServer?
    let logger: Logger
    /// The certificate served when TLS is on (reloaded on SIGHUP).
    let tlsIdentity: TLSServerIdentity?
    /// What `/readyz` answers: the store reachable, the server not draining.
    let readiness: ReadinessMonitor

    /// Creates the loops, the services and the routes; nothing listens until `start()`.
    /// With apps and an opened `store`, the chat API is mounted under `/v1`.
    public init(
        options: ServeOptions, channelsConfig: ChannelsConfig?, store: SQLChatStore? = nil,
        logger: Logger = Logger(label: "server")
    ) throws(ServerStartError) {
        self.options = options
        self.logger = logger
        tlsIdentity = try ParleyServer.loadTLS(options)
        do {
            group = try EventLoopGroup(
                threads: options.threads ?? EventLoopGroup.coreCount,
                backend: options.backend == .poll ? .poll : .epoll,
                logger: NetLogger { level, message in
                    Logger(label: "net").log(Logger.Level(level), message)
                })
        } catch {
            throw ServerStartError(code: "event_loops", message: "could not start event loops: \(error)")
        }
        let loops = group.loops
        let poster = HTTPClientWebhookPoster(group: group)
        let channels = channelsConfig.map { config in
            var config = config
            if let bound = options.maxOutboundBytes { config.maxOutboundBytes = bound }
            return ChannelsService(
                config: config, loops: loops, clock: ServerClock.monotonicMilliseconds,
                wallClock: ServerClock.unixMilliseconds, poster: poster,
                cluster: Self.clusterMembership(options, loops: loops))
        }
        self.channels = channels
        if let channels { Self.logNotices(of: channels, to: logger) }
        var routes = HTTPRoutes()
        let readiness = ReadinessMonitor(probe: store.map(Self.storeProbe), loop: loops[0], logger: logger)
        self.readiness = readiness
        readiness.mount(on: &routes)
        let edgeStatistics = EdgeStatistics()
        let refusals = store == nil ? nil : DocumentRefusals(logger: Logger(label: "docs", minimumLevel: logger.minimumLevel))
        let hookStatistics = channels != nil && store != nil ? ChatHookStatistics() : nil
        ServerRoutes.mountOperational(
            on: &routes, channels: channels, store: store, edge: edgeStatistics,
            docs: refusals, chatHooks: hookStatistics, metrics: MetricsAccess(options: options, config: channelsConfig),
            health: { [cluster = channels?.cluster] in Self.healthBody(cluster: cluster) },
            metricsElsewhere: options.metricsAddress != nil)
        metricsHTTP = Self.metricsServer(
            options: options, config: channelsConfig, group: group,
            sources: .init(channels: channels, store: store, edge: edgeStatistics, docs: refusals, chatHooks: hookStatistics))
        if let channels {
            ChannelsMount(service: channels, options: options).mount(on: &routes)
        }
        if let channels, let store {
            let docs = DocsMount(apps: channels.apps, store: store, hub: channels.sharedHub, refusals: refusals ?? DocumentRefusals())
            var configuration = ChatConfiguration(
                apps: channels.config.apps, dataDirectory: options.dataDirectory, devMode: options.dev,
                limits: options.chatLimits,
                otherChannels: { app, user, channel in
                    await docs.authorizeChannel(app: app, user: user, channel: channel)
                })
            configuration.guardedChannelPrefixes.append(DocsMount.channelPrefix)
            configuration.roomDocuments = RoomDocumentsReader(services: docs.services)
            configuration.hookPoster = poster
            if let hookStatistics { configuration.hookStatistics = hookStatistics }
            let chat = ChatService(
                configuration: configuration, store: store,
                publisher: HubChatPublisher(hub: channels.sharedHub, apps: channels.apps), apps: channels.apps)
            chat.guardSubscriptions(on: channels.hub)
            chat.addAccessEndObserver(docs)
            if let cluster = channels.cluster { chat.joinCluster(cluster) }
            let relay = PresenceRelay(chat: chat)
            channels.hub.setUserObserver(relay)
            ChatMount(service: chat, cors: CORSRules(apps: channels.config.apps, allowLoopback: options.dev)).mount(on: &routes)
            docs.mount(on: &routes, chat: chat, options: options)
            self.chat = chat
            self.docs = docs
            presenceRelay = relay
        } else {
            chat = nil
            docs = nil
            presenceRelay = nil
        }
        if store != nil { try WebMount.mountIfEnabled(on: &routes, options: options, apps: channelsConfig?.apps) }
        var configuration = HTTPServerConfiguration(
            host: options.host, port: options.port, limits: HTTPRequestParser.Limits(),
            idleTimeout: .seconds(options.idleTimeoutSeconds), maxOutboundBytes: options.maxOutboundBytes ?? 1 << 20,
            serverName: "parley/\(ParleyVersion.string)")
        options.edge.apply(to: &configuration, fileLimit: FileDescriptorLimit.current)
        configuration.tls = tlsIdentity
        configuration.joinOtherProcesses = options.reusePort
        if options.accessLog { configuration.accessLog = AccessLog.record }
        configuration.recordsRouteLatency = true
        http = HTTPServer(group: group, configuration: configuration, routes: routes)
        edgeStatistics.attach(http)
    }

    /// The most connections this server keeps open at once (``EdgeOptions/maxConnections``).
    public var maxConnections: Int? { http.configuration.maxConnections }

    /// Binds and starts serving; returns the bound address.
    @discardableResult
    public func start() throws(ServerStartError) -> SocketAddress {
        try startMetricsListener()
        do throws(NetError) {
            let address = try http.start()
            channels?.cluster?.start()
            if let channels { startTicking(channels) }
            readiness.startPeriodicChecks()
            docs?.startSweeping()
            return address
        } catch {
            throw ServerStartError.listen(error, options: options)
        }
    }

    /// Stops accepting, closes WebSockets with 1001, flushes, then stops the loops; `completion` runs after.
    public func shutdown(completion: @escaping @Sendable () -> Void = {}) {
        let group = self.group
        readiness.startDraining()
        metricsHTTP?.shutdown(gracePeriod: .zero)
        let cluster = channels?.cluster
        http.shutdown(gracePeriod: .seconds(options.shutdownGraceSeconds)) {
            cluster?.stop()
            group.shutdown()
            completion()
        }
    }

    /// Blocks until the event loops have exited.
    public func wait() { group.join() }

    private func startTicking(_ channels: ChannelsService) {
        let loop = group.loops[0]
        @Sendable func tick() {
            channels.tick()
            _ = loop.schedule(after: .seconds(1), tick)
        }
        _ = loop.schedule(after: .seconds(1), tick)
    }
}

/// Why the server could not start.
public struct ServerStartError: Error, CustomStringConvertible {
    /// A stable identifier of the problem.
    public let code: String
    /// What to tell the operator.
    public let message: String
    public var description: String { message }
}

extension Logger.Level {
    init(_ level: NetLogLevel) {
        switch level {
        case .debug: self = .debug
        case .info: self = .info
        case .warning: self = .warning
        case .error: self = .error
        }
    }
}
