import ParleyWire

/// One HTTP/1.1 server connection: feeds socket events to an ``HTTPServerConnectionStateMachine``
/// (which owns pipelining, `100-continue`, deadlines, keep-alive and close) and performs its
/// actions: routing, handlers, the WebSocket upgrade, the timer, the access log.
/// Loop-confined (all entry points run on the connection's loop).
final class HTTPServerConnection: ConnectionHandler, GracefulShutdown {
    private let server: HTTPServerCore
    private let connection: Connection
    private let tracker: ConnectionTracker
    private var machine: HTTPServerConnectionStateMachine
    /// The request routed last, until it is delivered (or, for an upgrade, offered).
    private var routed: RoutedRequest?
    private var deadlineTimer: TimerHandle?
    /// The peer's address, asked of the socket once at accept: it cannot change while the
    /// connection lives, and a keep-alive connection would otherwise pay a system call per request.
    private let remoteAddress: SocketAddress?
    /// Set when the peer is a trusted proxy: the count of the client it forwards for.
    private let forwardedHold: ForwardedAddressHold?
    /// What the access log and latency histograms need per response slot (empty when neither is on).
    private var traces: [Int: AccessTrace] = [:]
    private let tracing: Bool

    private struct RoutedRequest {
        let slot: Int
        /// The client: the peer, or whom a trusted proxy forwarded the request for.
        let client: SocketAddress?
        let target: HTTPTarget
        let parameters: [String: String]
        let destination: Destination
    }

    private enum Destination {
        case handler(HTTPHandler)
        case webSocket(HTTPRoutes.WebSocketRoute)
    }

    /// A request as the access log sees it, until its answer is queued.
    private struct AccessTrace {
        let method: String
        var route = "-"
        /// The route's index in the latency histograms (-1: no route matched).
        var routeIndex = -1
        let startedAt: UInt64
        /// The client as logged (a forwarded client has no port).
        var client: String?
        var app: String?
        var user: String?
    }

    init(
        server: HTTPServerCore, connection: Connection, tracker: ConnectionTracker, remoteAddress: SocketAddress?,
        forwardedHold: ForwardedAddressHold? = nil
    ) {
        self.server = server
        self.connection = connection
        self.tracker = tracker
        self.remoteAddress = remoteAddress
        self.forwardedHold = forwardedHold
        self.machine = HTTPServerConnectionStateMachine(configuration: server.connectionConfiguration)
        self.tracing = server.configuration.accessLog != nil || server.routeLatency != nil
    }

    // MARK: Socket events

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        perform(machine.receive(bytes, now: connection.loop.now))
    }

    func connectionDidReachEOF(_ connection: Connection) {
        perform(machine.endOfInput())
    }

    func connectionDidTimeOut(_ connection: Connection) {
        perform(machine.idleTimedOut())
    }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        perform(machine.connectionClosed())
        deadlineTimer?.cancel()
        deadlineTimer = nil
        routed = nil
        traces.removeAll()
        tracker.remove(self)
    }

    // MARK: Answers (from ``ResponseTarget``, on the loop)

    func complete(slot: Int, with response: HTTPResponse) {
        if tracing, response.loggedApp != nil || response.loggedUser != nil {
            traces[slot]?.app = response.loggedApp
            traces[slot]?.user = response.loggedUser
        }
        perform(machine.respond(slot: slot, Self.machineResponse(response), now: connection.loop.now))
    }

    func startStream(slot: Int, head: HTTPResponseHead) {
        perform(machine.startStream(slot: slot, head: head))
    }

    func streamChunk(slot: Int, _ bytes: [UInt8]) {
        perform(machine.streamChunk(slot: slot, bytes))
    }

    func finishStream(slot: Int, trailers: HTTPHeaders) {
        perform(machine.finishStream(slot: slot, trailers: trailers, now: connection.loop.now))
    }

    private static func machineResponse(_ response: HTTPResponse) -> HTTPServerConnectionStateMachine.Response {
        .init(head: HTTPResponseHead(status: response.status, headers: response.headers), body: response.body)
    }

    // MARK: Actions

    /// Performs a batch of actions. A batch that ends in routing or delivering a request
    /// continues with the machine's next batch in this loop rather than by recursion, so a
    /// read holding hundreds of pipelined requests does not nest as deep.
    private func perform(_ actions: [HTTPServerConnectionStateMachine.Action]) {
        var batch = actions
        while !batch.isEmpty {
            var next: [HTTPServerConnectionStateMachine.Action] = []
            for action in batch {
                switch action {
                case .route(let slot, let head):
                    next = machine.headRouted(route(slot: slot, head), now: connection.loop.now)
                case .deliver(let slot, let head, let body):
                    deliver(slot: slot, head: head, body: body)
                    next = machine.proceed(now: connection.loop.now)
                case .offerUpgrade(let slot, let head, let body):
                    upgrade(slot: slot, head: head, body: body)
                case .write(let bytes):
                    connection.write(bytes)
                case .answered(let slot, let status, let bytesIn, let bytesOut):
                    logAccess(slot: slot, status: status.code, bytesIn: bytesIn, bytesOut: bytesOut)
                case .pauseReading:
                    connection.pauseReading()
                case .resumeReading:
                    connection.resumeReading()
                case .scheduleDeadline(let at):
                    deadlineTimer?.cancel()
                    deadlineTimer = connection.loop.scheduleLocal(deadline: at) { [self] in
                        deadlineTimer = nil
                        perform(machine.timerFired(now: connection.loop.now))
                    }
                case .cancelDeadline:
                    deadlineTimer?.cancel()
                    deadlineTimer = nil
                case .close:
                    connection.close()
                case .abortIdle:
                    connection.abort(NetError(.timedOut, "HTTP connection idle"))
                case .upgrade:
                    break  // performed in `upgrade(slot:head:body:)`, which asked for it
                }
            }
            batch = next
        }
    }

    // MARK: Routing

    /// Routes a request head: where its body goes, or what to answer instead.
    private func route(slot: Int, _ head: HTTPRequestHead) -> HTTPServerConnectionStateMachine.HeadDecision {
        if tracing { traces[slot] = AccessTrace(method: head.method.rawValue, startedAt: MonotonicClock.now()) }
        let (client, refusal) = forwardedClient(head, slot: slot)
        if let refusal { return .refuse(Self.machineResponse(refusal)) }
        let target: HTTPTarget
        do {
            target = try head.parsedTarget()
        } catch {
            return .refuse(.error(error.status, code: error.code, message: error.message))
        }
        switch server.routes.router.match(method: head.method, target: target) {
        case .found(.http(let route), let parameters):
            noteRoute(slot: slot, route.pattern, index: route.index)
            if let refusal = route.headCheck?(
                HTTPRequest(
                    head: head, target: target, parameters: parameters,
                    remoteAddress: client))
            {
                // Refused before a byte of the body is read: with a body announced the
                // connection's framing is lost, so the answer closes it.
                if tracing {
                    traces[slot]?.app = refusal.loggedApp
                    traces[slot]?.user = refusal.loggedUser
                }
                return head.announcesBody ? .refuse(Self.machineResponse(refusal)) : .answer(Self.machineResponse(refusal))
            }
            routed = RoutedRequest(
                slot: slot, client: client, target: target, parameters: parameters,
                destination: .handler(route.handler))
            return .read(maxBodySize: route.maxBodySize ?? server.configuration.limits.maxBodySize)
        case .found(.webSocket(let route), let parameters):
            noteRoute(slot: slot, route.pattern, index: route.index)
            routed = RoutedRequest(
                slot: slot, client: client, target: target, parameters: parameters,
                destination: .webSocket(route))
            return .upgrade
        case .methodNotAllowed(let allowed):
            var response = HTTPResponse.error(
                .methodNotAllowed, code: "method_not_allowed",
                message: "\(head.method) is not allowed on this path")
            response.headers.replace("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            return .answer(Self.machineResponse(response))
        case .notFound:
            return .answer(.error(.notFound, code: "not_found", message: "no route for \(target.path)"))
        }
    }

    /// Who sent a request: the peer, or (from a trusted proxy) the client its
    /// `X-Forwarded-For` names, counted against the per-address cap as if it had connected
    /// itself; the 503 to answer when that client holds too many connections.
    private func forwardedClient(_ head: HTTPRequestHead, slot: Int) -> (SocketAddress?, refusal: HTTPResponse?) {
        guard let forwardedHold, let peer = remoteAddress else { return (remoteAddress, nil) }
        let forwarded = server.configuration.trustedProxies.client(of: peer, forwardedFor: head.headers.values(for: "X-Forwarded-For"))
        guard forwardedHold.move(to: forwarded) else { return (peer, server.refusalResponse(.addressFull)) }
        guard let forwarded else { return (peer, nil) }
        traces[slot]?.client = forwarded.host
        return (forwarded, nil)
    }

    /// Hands a request that arrived whole to its handler.
    private func deliver(slot: Int, head: HTTPRequestHead, body: [UInt8]) {
        guard let request = routed, request.slot == slot, case .handler(let handler) = request.destination else { return }
        routed = nil
        let value = HTTPRequest(
            head: head, target: request.target, parameters: request.parameters, body: body,
            remoteAddress: request.client)
        handler(value, HTTPResponder(loop: connection.loop, target: ResponseTarget(connection: self, slot: slot)))
    }

    // MARK: Upgrade

    /// Switches an upgrade request that is now the oldest to a ``WebSocket``, or refuses it.
    private func upgrade(slot: Int, head: HTTPRequestHead, body: [UInt8]) {
        guard let routedRequest = routed, routedRequest.slot == slot,
            case .webSocket(let route) = routedRequest.destination
        else { return }
        routed = nil
        let now = connection.loop.now
        let request = HTTPRequest(
            head: head, target: routedRequest.target, parameters: routedRequest.parameters,
            body: body, remoteAddress: routedRequest.client)
        let handshake: WebSocketServerHandshake
        do {
            handshake = try WebSocketServerHandshake(request: head)
        } catch {
            var response = HTTPResponse.error(error.status, code: error.code.rawValue, message: error.message)
            for field in error.response.headers where !HTTPHeaders.namesEqual(field.name, "Content-Length") {
                response.headers.replace(field.name, field.value)
            }
            perform(machine.upgradeRefused(slot: slot, Self.machineResponse(response), now: now))
            return
        }
        if let check = route.shouldUpgrade, let refusal = check(request, handshake) {
            perform(machine.upgradeRefused(slot: slot, Self.machineResponse(refusal), now: now))
            return
        }
        let accepted = handshake.accept(supportedSubprotocols: route.options.subprotocols, deflate: route.options.deflate)
        let actions = machine.upgradeAccepted(slot: slot, response: accepted.responseBytes, now: now)
        perform(actions)
        guard case .upgrade(let leftover)? = actions.last else { return }
        let socket = WebSocket(
            connection: connection, role: .server,
            options: accepted.options(maxMessageSize: route.options.maxMessageSize),
            subprotocol: accepted.subprotocol, settings: WebSocket.Settings(route.options))
        connection.idleTimeout = nil
        connection.maxOutboundBytes = route.options.maxOutboundBytes
        connection.handler = socket
        tracker.remove(self)
        socket.track(in: tracker)
        route.onOpen(request, socket)
        socket.startHeartbeat()
        if !leftover.isEmpty { leftover.withUnsafeBytes { socket.receive($0) } }
    }

    // MARK: Access log

    private func noteRoute(slot: Int, _ pattern: String, index route: Int) {
        guard tracing else { return }
        traces[slot]?.route = pattern
        traces[slot]?.routeIndex = route
    }

    /// Hands the access log its record of a request, and the route's latency histogram its
    /// duration, once its answer is queued.
    private func logAccess(slot: Int, status: Int, bytesIn: Int, bytesOut: Int) {
        guard tracing else { return }
        // A slot opened for an unreadable request (bad bytes, a deadline) has no head and no trace.
        let trace = traces.removeValue(forKey: slot) ?? AccessTrace(method: "-", startedAt: MonotonicClock.now())
        let now = MonotonicClock.now()
        let elapsed = now > trace.startedAt ? now - trace.startedAt : 0
        if let latency = server.routeLatency, trace.routeIndex >= 0 {
            latency.record(loop: connection.loop.index, route: trace.routeIndex, microseconds: Int(elapsed / 1000))
        }
        guard let log = server.configuration.accessLog else { return }
        log(
            HTTPAccessRecord(
                method: trace.method, route: trace.route, status: status, durationMicroseconds: Int(elapsed / 1000),
                bytesIn: bytesIn, bytesOut: bytesOut, client: trace.client ?? remoteAddress?.description,
                app: trace.app, user: trace.user))
    }

    // MARK: Graceful shutdown

    func beginGracefulShutdown() {
        perform(machine.shutdown())
    }

    func forceClose() { connection.abort(NetError(.closed, "server shut down")) }
}
