import ParleyWire

/// Drives one client connection: feeds a `PusherConnection` and carries out its actions
/// against the transport and the hub. Lives on one loop; every method is called there.
public final class PusherSession: ChannelSubscriber, @unchecked Sendable {
    // @unchecked: confined to the loop `loopIndex`; the hub calls in only through that loop.

    public let socketID: String
    public let loopIndex: Int
    /// The app the connection belongs to (held once, by the protocol state: every idle
    /// connection carries a copy, so a second one here cost 152 bytes each).
    public var app: AppConfig { connection.app }
    private var connection: PusherConnection
    /// The live apps, and the generation of them `connection.app` was taken from: after a
    /// reload the next message refreshes the app (rotated secrets, changed switches).
    private let registry: AppRegistry?
    private var registryGeneration: Int
    private let hub: any ChannelHub
    private let transport: any PusherTransport
    private let webhooks: (any WebhookSink)?
    private let metrics: ChannelsMetrics
    /// The app's counters, taken once (the app's id never changes, even across reloads).
    private let traffic: AppTraffic
    private let maxOutboundBytes: Int
    private var admitted = false
    private var finished = false

    /// Creates the session of a connection accepted at `now` (monotonic milliseconds).
    public convenience init(
        app: AppConfig, config: ChannelsConfig, loopIndex: Int, hub: any ChannelHub,
        transport: any PusherTransport, webhooks: (any WebhookSink)?, metrics: ChannelsMetrics,
        now: Int64, socketID: PusherSocketID = .random(), registry: AppRegistry? = nil
    ) {
        self.init(
            sharedApp: SharedAppConfig(app), config: config, loopIndex: loopIndex, hub: hub, transport: transport,
            webhooks: webhooks, metrics: metrics, now: now, socketID: socketID, registry: registry)
    }

    /// Creates the session of a connection accepted at `now`, sharing its app's configuration
    /// with the app's other connections.
    public init(
        sharedApp: SharedAppConfig, config: ChannelsConfig, loopIndex: Int, hub: any ChannelHub,
        transport: any PusherTransport, webhooks: (any WebhookSink)?, metrics: ChannelsMetrics, now: Int64,
        socketID: PusherSocketID = .random(), registry: AppRegistry? = nil
    ) {
        self.registry = registry
        registryGeneration = registry?.generation ?? 0
        self.socketID = socketID.rawValue
        self.loopIndex = loopIndex
        self.hub = hub
        self.transport = transport
        self.webhooks = webhooks
        self.metrics = metrics
        traffic = metrics.app(sharedApp.value.id)
        self.maxOutboundBytes = config.maxOutboundBytes
        self.connection = PusherConnection(
            sharedApp: sharedApp, socketID: socketID, activityTimeout: config.activityTimeout,
            pongTimeout: config.pongTimeout, now: now)
    }

    /// Admits the connection (app enabled, quota) and sends `connection_established`;
    /// false when it was refused and closed.
    @discardableResult
    public func start() -> Bool {
        guard app.enabled else {
            perform(PusherConnection.refusal(.appDisabled, message: "App \(app.id) is disabled"))
            finished = true
            return false
        }
        guard hub.connect(app: app, subscriber: self) else {
            metrics.notices.post(
                "connection_quota", "connection refused: the app is at its max_connections (4004)",
                [("app", app.id), ("max_connections", app.limits.maxConnections.map(String.init) ?? "none")])
            ChannelsMetrics.add(traffic.connectionsRefused)
            perform(PusherConnection.refusal(.overConnectionQuota, message: "App \(app.id) is over its connection quota"))
            finished = true
            return false
        }
        admitted = true
        ChannelsMetrics.add(traffic.connections)
        perform(connection.start())
        return true
    }

    /// A text frame from the client.
    public func receiveText(_ bytes: [UInt8], now: Int64) {
        refreshApp()
        ChannelsMetrics.add(traffic.messagesIn)
        ChannelsMetrics.add(traffic.bytesIn, bytes.count)
        perform(connection.receiveText(bytes, now: now))
    }

    /// Takes the app's current settings after a reload. An app removed by the reload keeps
    /// its open connections on the settings they had (new ones are refused with 4001).
    private func refreshApp() {
        guard let registry, registry.generation != registryGeneration else { return }
        registryGeneration = registry.generation
        if let current = registry.app(id: connection.app.id) { connection.app = current }
    }

    /// A binary frame from the client (refused with 4200).
    public func receiveBinary(now: Int64) {
        perform(connection.receiveBinary(now: now))
    }

    /// A WebSocket ping/pong or other proof of life.
    public func noteActivity(now: Int64) {
        connection.noteActivity(now: now)
    }

    /// The clock; returns when to call again (monotonic milliseconds).
    @discardableResult
    public func tick(now: Int64) -> Int64 {
        perform(connection.tick(now: now))
        return connection.nextDeadline
    }

    /// The transport is gone (closed by the peer or after our close): leave everything.
    public func transportClosed() {
        perform(connection.transportClosed())
        finish()
    }

    /// Whether the session has ended.
    public var isFinished: Bool { finished }

    @discardableResult
    public func deliver(_ frame: ChannelFrame) -> Bool {
        guard !finished else { return false }
        if transport.queuedBytes + frame.websocketFrame.count > maxOutboundBytes {
            ChannelsMetrics.add(traffic.slowConsumersDropped)
            // What is queued is lost anyway; the client must see why before it reconnects.
            transport.discardQueued()
            perform(connection.close(.overCapacity, message: "Connection is not reading fast enough; reconnect after a backoff"))
            return false
        }
        transport.send(frame)
        return true
    }

    public func terminate(_ code: PusherErrorCode, message: String) {
        guard !finished else { return }
        perform(connection.close(code, message: message))
    }

    public func revoke(channel: String, notice: ChannelFrame) {
        guard !finished, connection.subscriptionRevoked(channel: channel) else { return }
        ChannelsMetrics.add(traffic.subscriptions, -1)
        deliver(notice)
    }

    public func subscriptionDecided(channel: String, _ outcome: PusherSubscribeOutcome) {
        if case .refused = outcome { ChannelsMetrics.add(traffic.subscriptions, -1) }
        perform(connection.subscriptionResult(channel: channel, outcome))
    }

    private func send(_ frame: [UInt8]) {
        ChannelsMetrics.add(traffic.messagesOut)
        ChannelsMetrics.add(traffic.bytesOut, frame.count)
        transport.sendText(frame)
    }

    private func perform(_ actions: [PusherConnectionAction]) {
        for action in actions {
            // After the session finished (the hub has forgotten it) nothing may register it
            // again: a subscription or sign-in then would outlive the connection. Leaving is fine.
            if finished, action.registersWithHub { continue }
            switch action {
            case .send(let frame):
                guard !finished else { continue }
                send(frame)
            case .close(let code, let reason):
                guard !finished else { continue }
                transport.close(code: code, reason: reason)
            case .subscribe(let request):
                ChannelsMetrics.add(traffic.subscriptions)
                let outcome = hub.subscribe(app: app, subscriber: self, request: request)
                if case .refused = outcome { ChannelsMetrics.add(traffic.subscriptions, -1) }
                perform(connection.subscriptionResult(channel: request.channel.name, outcome))
            case .unsubscribe(let channel):
                ChannelsMetrics.add(traffic.subscriptions, -1)
                hub.unsubscribe(app: app, subscriber: self, channel: channel)
            case .clientEvent(let event):
                hub.publish(
                    app: app,
                    events: [
                        HubEvent(
                            channel: event.channel, event: event.event, data: event.data,
                            frame: event.frame, excluding: socketID)
                    ])
                webhooks?.enqueue(
                    app: app,
                    event: WebhookEvent(
                        .clientEvent, channel: event.channel, userID: event.userID,
                        event: event.event, data: event.data, socketID: socketID))
            case .signIn(let user):
                hub.signIn(app: app, subscriber: self, user: user)
            case .signOut(let userID):
                hub.signOut(app: app, subscriber: self, userID: userID)
            }
        }
        if connection.isClosed { finish() }
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        if admitted {
            ChannelsMetrics.add(traffic.connections, -1)
            hub.disconnect(app: app, subscriber: self)
        }
    }
}
