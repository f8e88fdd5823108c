import ParleyWire
import Synchronization

/// An HTTP/1.1 server with WebSocket endpoints, on an ``EventLoopGroup``.
///
/// Each accepted connection stays on the loop that accepted it; handlers run there. Requests
/// may be pipelined (answers go out in order), bodies are bounded per route, parse failures
/// are answered with the parser's status and a JSON error body, then the connection closes.
///
/// Threading: every public method is safe from any thread.
public final class HTTPServer: Sendable {
    /// The loops the server runs on.
    public let group: EventLoopGroup
    private let core: HTTPServerCore
    private let listener = Mutex<TCPServer?>(nil)
    private let shuttingDown = Atomic<Bool>(false)

    /// Creates a server; call ``start()`` to bind.
    public init(
        group: EventLoopGroup, configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        routes: HTTPRoutes
    ) {
        self.group = group
        self.core = HTTPServerCore(
            configuration: configuration, routes: routes,
            trackers: group.loops.map { ConnectionTracker(loop: $0) })
    }

    /// The configuration given at creation.
    public var configuration: HTTPServerConfiguration { core.configuration }

    /// Binds and starts accepting; returns the bound address (with the real port when 0
    /// was configured).
    @discardableResult
    public func start() throws(NetError) -> SocketAddress {
        let core = self.core
        let server = try TCPServer.start(
            group: group, host: core.configuration.host, port: core.configuration.port,
            backlog: core.configuration.backlog,
            distribution: core.configuration.distribution,
            joinOtherProcesses: core.configuration.joinOtherProcesses
        ) { connection in
            core.adopt(connection)
        }
        listener.withLock { $0 = server }
        return server.localAddress
    }

    /// The bound address, once started.
    public var localAddress: SocketAddress? { listener.withLock { $0?.localAddress } }

    /// The per-route latency histograms, when ``HTTPServerConfiguration/recordsRouteLatency`` is on.
    public var routeLatency: HTTPRouteLatency? { core.routeLatency }

    /// Connections open now (HTTP and WebSocket), as counted against ``HTTPServerConfiguration/maxConnections``.
    public var openConnections: Int { core.admission.openCount }

    /// Connections refused so far because the server (`serverFull`) or the client's address
    /// (`addressFull`) was at its cap.
    public var refusedConnections: (serverFull: Int, addressFull: Int) { core.admission.refusedCount }

    /// Stops accepting, lets requests in progress finish (their responses carry
    /// `Connection: close`), closes idle connections and WebSockets (1001), and after
    /// `gracePeriod` closes whatever is left. `completion` runs once everything is closed,
    /// on one of the loops. The loops keep running; stop the group afterwards.
    public func shutdown(gracePeriod: Duration = .seconds(5), completion: (@Sendable () -> Void)? = nil) {
        guard !shuttingDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        listener.withLock { $0?.stop() }
        let countdown = Countdown(group.loops.count, completion)
        for tracker in core.trackers {
            tracker.loop.execute {
                tracker.drain(grace: gracePeriod) { countdown.tick() }
            }
        }
    }
}

/// What every connection of a server shares: settings, routes, per-loop trackers.
final class HTTPServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let routes: HTTPRoutes
    let trackers: [ConnectionTracker]
    let admission: ConnectionAdmission
    let deadlinePolicy: HTTPRequestDeadline.Policy
    /// The protocol limits each connection's state machine starts with.
    let connectionConfiguration: HTTPServerConnectionStateMachine.Configuration
    let routeLatency: HTTPRouteLatency?

    init(configuration: HTTPServerConfiguration, routes: HTTPRoutes, trackers: [ConnectionTracker]) {
        self.configuration = configuration
        self.routes = routes
        self.trackers = trackers
        routeLatency =
            configuration.recordsRouteLatency
            ? HTTPRouteLatency(templates: routes.templates, loops: trackers.count) : nil
        admission = ConnectionAdmission(
            maxConnections: configuration.maxConnections,
            maxPerAddress: configuration.maxConnectionsPerAddress,
            limitLoopback: configuration.limitLoopbackConnections)
        deadlinePolicy = HTTPRequestDeadline.Policy(
            headTimeout: configuration.requestHeadTimeout,
            bodyTimeout: configuration.requestBodyTimeout,
            minimumBodyRate: configuration.minimumBodyRate,
            bodyGracePeriod: configuration.requestBodyGracePeriod)
        connectionConfiguration = .init(
            limits: configuration.limits, deadlinePolicy: deadlinePolicy,
            maxPipelinedRequests: configuration.maxPipelinedRequests,
            serverName: configuration.serverName)
    }

    /// Takes over a freshly accepted connection. On its loop.
    func adopt(_ connection: Connection) {
        let tracker = trackers[connection.loop.index]
        guard !tracker.draining else {
            connection.abort(NetError(.closed, "server shutting down"))
            return
        }
        let address = connection.remoteAddress
        let proxied = address.map(configuration.trustedProxies.contains) ?? false
        let hold = proxied ? ForwardedAddressHold(admission: admission) : nil
        switch admission.admit(address, perAddress: !proxied) {
        case .failure(let refusal):
            refuse(connection, refusal)
            return
        case .success(let ticket):
            let admission = self.admission
            connection.closeObserver = {
                admission.release(ticket)
                hold?.release()
            }
        }
        if let identity = configuration.tls {
            do {
                try connection.startTLS(
                    context: identity.context, role: .server,
                    handshakeTimeout: configuration.tlsHandshakeTimeout)
            } catch {
                connection.abort(error)
                return
            }
        }
        let handler = HTTPServerConnection(
            server: self, connection: connection, tracker: tracker, remoteAddress: address,
            forwardedHold: hold)
        connection.maxOutboundBytes = configuration.maxOutboundBytes
        connection.idleTimeout = configuration.idleTimeout
        connection.handler = handler
        tracker.add(handler)
    }

    /// Answers a connection over a cap with 503 and `Retry-After` before reading its request
    /// (the client learns why and when to come back rather than seeing a silent close), then
    /// closes it; the close lingers at most a second, so refusals hold few descriptors.
    private func refuse(_ connection: Connection, _ refusal: ConnectionAdmission.Refusal) {
        var response = refusalResponse(refusal)
        if let name = configuration.serverName { response.headers.add("Server", name) }
        let bytes = HTTPResponseWriter.response(
            HTTPResponseHead(status: response.status, headers: response.headers),
            body: response.body, keepAlive: false, requestVersion: .http1_1)
        connection.closeTimeout = .seconds(1)
        connection.write(bytes)
        connection.close()
    }

    /// The 503 (with `Retry-After`) for a connection over a cap.
    func refusalResponse(_ refusal: ConnectionAdmission.Refusal) -> HTTPResponse {
        let message =
            switch refusal {
            case .serverFull: "the server has too many connections open; retry later"
            case .addressFull: "too many connections from your address; close some or retry later"
            }
        var response = HTTPResponse.error(
            HTTPStatus(503), code: refusal == .serverFull ? "server_busy" : "too_many_connections",
            message: message)
        response.headers.add("Retry-After", String(configuration.connectionRetryAfterSeconds))
        return response
    }
}

/// Runs a completion once `count` ticks arrived, from any thread.
final class Countdown: Sendable {
    private let remaining: Atomic<Int>
    private let completion: (@Sendable () -> Void)?

    init(_ count: Int, _ completion: (@Sendable () -> Void)?) {
        remaining = Atomic(count)
        self.completion = completion
    }

    func tick() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { completion?() }
    }
}
