import ParleyWire

/// One HTTP/1.1 server connection: drives an ``HTTPRequestParser``, routes requests,
/// keeps pipelined responses in order, and hands the socket to a ``WebSocket`` on upgrade.
/// Loop-confined (all entry points run on the connection's loop).
final class HTTPServerConnection: ConnectionHandler, GracefulShutdown {
    private let server: HTTPServerCore
    private let connection: Connection
    private let tracker: ConnectionTracker
    private var parser: HTTPRequestParser
    private var current: PendingRequest?
    private var slots: [ResponseSlot] = []
    private var nextSlot = 0
    /// No further requests are read (error, `Connection: close`, upgrade, shutdown).
    private var stopped = false
    private var processing = false
    private var readPausedForPipeline = false
    private var pendingUpgrade: (request: HTTPRequest, route: HTTPRoutes.WebSocketRoute, slot: Int)?
    private var closeWhenIdle = false
    /// The head and body clocks of the request arriving now (ParleyWire decides; this only
    /// keeps one timer at the instant it names). Idle while heads arrive whole, as most do.
    private var deadline: HTTPRequestDeadline
    private var deadlineTimer: TimerHandle?
    private var deadlineTimerAt: UInt64 = .max
    private var headInProgress = false
    private var shutdownRequested = false
    /// The peer's address, asked of the socket once at accept: it cannot change while the
    /// connection lives, and a keep-alive connection would otherwise pay a system call per request.
    private let remoteAddress: SocketAddress?
    /// Set when the peer is a trusted proxy: the count of the client it forwards for.
    private let forwardedHold: ForwardedAddressHold?

    private struct PendingRequest {
        let slot: Int
        let head: HTTPRequestHead
        /// The client: the peer, or whom a trusted proxy forwarded the request for.
        let client: SocketAddress?
        let target: HTTPTarget
        let parameters: [String: String]
        let disposition: Disposition
        var body: [UInt8] = []
    }

    private enum Disposition {
        case handler(HTTPHandler)
        case webSocket(HTTPRoutes.WebSocketRoute)
        case answer(HTTPResponse)
    }

    private struct ResponseSlot {
        let id: Int
        let headRequest: Bool
        let version: HTTPVersion
        var keepAlive: Bool
        var buffered: [SharedBytes] = []
        var finished = false
        var streaming = false
        /// HTTP/1.0 clients cannot read chunked bodies: their stream is collected here.
        var collected: [UInt8]? = nil
        var streamHead: HTTPResponseHead? = nil
        /// What the access log needs to know about the request (nil: no access log).
        var access: AccessTrace? = nil
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
        var bytesIn = 0
        var status = 0
        var bytesOut = 0
    }

    init(server: HTTPServerCore, connection: Connection, tracker: ConnectionTracker, remoteAddress: SocketAddress?,
         forwardedHold: ForwardedAddressHold? = nil) {
        self.server = server
        self.connection = connection
        self.tracker = tracker
        self.remoteAddress = remoteAddress
        self.forwardedHold = forwardedHold
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
        self.deadline = HTTPRequestDeadline(policy: server.deadlinePolicy)
    }

    // MARK: Input

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        guard !stopped else { return }
        parser.receive(bytes)
        processEvents()
        updateDeadline()
    }

    /// Tells the deadline what is arriving now and keeps its timer no later than it asks.
    private func updateDeadline() {
        if stopped {
            deadline.finished()
        } else if current == nil {
            // A body in progress started its own clock in `begin`.
            if headInProgress { deadline.headStarted(at: connection.loop.now) } else { deadline.finished() }
        }
        checkDeadline()
    }

    private func checkDeadline() {
        switch deadline.verdict(at: connection.loop.now) {
        case .idle:
            deadlineTimer?.cancel()
            deadlineTimer = nil
            deadlineTimerAt = .max
        case .wait(let until):
            // A timer already due no later re-checks then; bytes arriving meanwhile only
            // ever move the deadline later.
            guard deadlineTimer == nil || deadlineTimerAt > until else { return }
            deadlineTimer?.cancel()
            deadlineTimerAt = until
            deadlineTimer = connection.loop.scheduleLocal(deadline: until) { [self] in
                deadlineTimer = nil
                deadlineTimerAt = .max
                checkDeadline()
            }
        case .expired(let expiry):
            deadlineTimer?.cancel()
            deadlineTimer = nil
            deadlineTimerAt = .max
            deadline.finished()
            timedOut(expiry)
        }
    }

    /// Answers 408 for a request that broke a deadline, and closes.
    private func timedOut(_ expiry: HTTPRequestDeadline.Expiry) {
        let message = switch expiry {
        case .head: "the request head took too long to arrive"
        case .body: "the request body took too long to arrive"
        case .bodyRate: "the request body arrived too slowly"
        }
        let slot = current?.slot ?? openSlot(for: nil)
        answerAndStop(slot: slot, .error(HTTPStatus(408), code: "request_timeout", message: message))
    }

    func connectionDidReachEOF(_ connection: Connection) {
        // The client will send nothing more: finish what is in progress, then close.
        stopped = true
        if current != nil {
            // A request cut off mid-body can never complete.
            connection.close()
            return
        }
        if slots.isEmpty { connection.close() } else { closeWhenIdle = true }
    }

    func connectionDidTimeOut(_ connection: Connection) {
        // Idle while a handler is still working is not the client's fault.
        if !slots.isEmpty && current == nil { return }
        connection.abort(NetError(.timedOut, "HTTP connection idle"))
    }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        deadlineTimer?.cancel()
        deadlineTimer = nil
        deadline.finished()
        stopped = true
        current = nil
        slots.removeAll()
        tracker.remove(self)
    }

    private func processEvents() {
        guard !processing else { return }
        processing = true
        defer { processing = false }
        while !stopped {
            if slots.count >= server.configuration.maxPipelinedRequests && current == nil {
                pauseForPipeline()
                return
            }
            let before = parser.bufferedByteCount
            guard let event = parser.nextEvent() else {
                // Bytes of a new request were buffered or consumed (header lines) without a
                // head yet: a head is in progress.
                if current == nil && (parser.bufferedByteCount > 0 || parser.bufferedByteCount < before) {
                    headInProgress = true
                }
                return
            }
            handle(event)
        }
    }

    private func handle(_ event: HTTPRequestParser.Event) {
        switch event {
        case .head(let head):
            headInProgress = false
            begin(head)
        case .body(let piece):
            current?.body.append(contentsOf: piece)
            deadline.bodyReceived(piece.count)
        case .end:
            headInProgress = false
            finishRequest()
        case .error(let error): failParse(error)
        }
    }

    private func pauseForPipeline() {
        guard !readPausedForPipeline else { return }
        readPausedForPipeline = true
        connection.pauseReading()
    }

    // MARK: Requests

    private func begin(_ head: HTTPRequestHead) {
        let slot = openSlot(for: head)
        let (client, refusal) = forwardedClient(head, slot: slot)
        if let refusal {
            answerAndStop(slot: slot, refusal)
            return
        }
        let target: HTTPTarget
        do {
            target = try head.parsedTarget()
        } catch {
            answerAndStop(slot: slot, .error(error.status, code: error.code, message: error.message))
            return
        }
        var parameters: [String: String] = [:]
        let disposition: Disposition
        switch server.routes.router.match(method: head.method, target: target) {
        case .found(.http(let route), let found):
            parameters = found
            noteRoute(slot: slot, route.pattern, index: route.index)
            if let refusal = route.headCheck?(HTTPRequest(head: head, target: target, parameters: found,
                                                          remoteAddress: client)) {
                // Refused before a byte of the body is read: with a body announced the
                // connection's framing is lost, so the answer closes it.
                guard !head.announcesBody else {
                    answerAndStop(slot: slot, refusal)
                    return
                }
                disposition = .answer(refusal)
            } else {
                parser.maxBodySize = route.maxBodySize ?? server.configuration.limits.maxBodySize
                disposition = .handler(route.handler)
            }
        case .found(.webSocket(let route), let found):
            parameters = found
            noteRoute(slot: slot, route.pattern, index: route.index)
            disposition = .webSocket(route)
        case .methodNotAllowed(let allowed):
            var response = HTTPResponse.error(.methodNotAllowed, code: "method_not_allowed",
                                              message: "\(head.method) is not allowed on this path")
            response.headers.replace("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            disposition = .answer(response)
        case .notFound:
            disposition = .answer(.error(.notFound, code: "not_found", message: "no route for \(target.path)"))
        }

        switch head.expectation {
        case .unsupported(let expectation):
            answerAndStop(slot: slot, .error(.expectationFailed, code: "expectation_failed",
                                             message: "unsupported expectation: \(expectation)"))
            return
        case .continue:
            if case .answer(let response) = disposition {
                // Refusing without 100 Continue: the client may or may not send the body,
                // so the connection's framing is unknowable afterwards.
                answerAndStop(slot: slot, response)
                return
            }
            current = PendingRequest(slot: slot, head: head, client: client, target: target, parameters: parameters,
                                     disposition: disposition)
            // The parser decides the body limit first (a Content-Length over it fails now).
            let next = parser.nextEvent()
            if case .error(let error)? = next {
                failParse(error)
                return
            }
            emit(slot: slot, SharedBytes(HTTPResponseWriter.continueResponse))
            deadline.bodyStarted(at: connection.loop.now)
            if let next { handle(next) }
        case .none:
            current = PendingRequest(slot: slot, head: head, client: client, target: target, parameters: parameters,
                                     disposition: disposition)
            deadline.bodyStarted(at: connection.loop.now)
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
        if let index = slotIndex(slot), slots[index].access != nil { slots[index].access!.client = forwarded.host }
        return (forwarded, nil)
    }

    private func finishRequest() {
        guard let request = current else { return }
        current = nil
        deadline.finished()
        if !request.head.keepAlive || shutdownRequested { stopped = true }
        if let index = slotIndex(request.slot), slots[index].access != nil { slots[index].access!.bytesIn = request.body.count }
        let value = HTTPRequest(head: request.head, target: request.target, parameters: request.parameters,
                                body: request.body, remoteAddress: request.client)
        switch request.disposition {
        case .answer(let response):
            complete(slot: request.slot, with: response)
        case .handler(let handler):
            let responder = HTTPResponder(loop: connection.loop, target: ResponseTarget(connection: self, slot: request.slot))
            handler(value, responder)
        case .webSocket(let route):
            stopped = true
            pendingUpgrade = (value, route, request.slot)
            upgradeIfReady()
        }
    }

    private func failParse(_ error: HTTPParseError) {
        let slot = current?.slot ?? openSlot(for: nil)
        current = nil
        answerAndStop(slot: slot, .error(error.status, code: error.code, message: error.message))
    }

    /// Answers `slot` with `Connection: close` and reads no further requests.
    private func answerAndStop(slot: Int, _ response: HTTPResponse) {
        stopped = true
        current = nil
        if let index = slots.firstIndex(where: { $0.id == slot }) { slots[index].keepAlive = false }
        complete(slot: slot, with: response)
    }

    // MARK: Responses (in request order)

    private func openSlot(for head: HTTPRequestHead?) -> Int {
        let id = nextSlot
        nextSlot += 1
        var slot = ResponseSlot(id: id, headRequest: head?.method == .HEAD, version: head?.version ?? .http1_1,
                                keepAlive: head?.keepAlive ?? false)
        if server.configuration.accessLog != nil || server.routeLatency != nil {
            slot.access = AccessTrace(method: head?.method.rawValue ?? "-", startedAt: MonotonicClock.now())
        }
        slots.append(slot)
        return id
    }

    private func slotIndex(_ id: Int) -> Int? {
        // Slots are in id order and few (bounded by the pipeline depth).
        slots.firstIndex { $0.id == id }
    }

    func complete(slot id: Int, with response: HTTPResponse) {
        guard let index = slotIndex(id), !slots[index].finished, !slots[index].streaming else { return }
        let slot = slots[index]
        let keepAlive = slot.keepAlive && (id < nextSlot - 1 || !stopped)
        slots[index].keepAlive = keepAlive
        let bytes = HTTPResponseWriter.response(decorate(response.status, response.headers), body: response.body,
                                                keepAlive: keepAlive, requestVersion: slot.version,
                                                headRequest: slot.headRequest)
        emit(slot: id, SharedBytes(bytes))
        logAccess(index: index, status: response.status.code, bytesOut: slot.headRequest ? 0 : response.body.count,
                  app: response.loggedApp, user: response.loggedUser)
        markFinished(index: slotIndex(id))
    }

    func startStream(slot id: Int, head: HTTPResponseHead) {
        guard let index = slotIndex(id), !slots[index].finished, !slots[index].streaming else { return }
        slots[index].streaming = true
        slots[index].access?.status = head.status.code
        let slot = slots[index]
        let keepAlive = slot.keepAlive && (id < nextSlot - 1 || !stopped)
        slots[index].keepAlive = keepAlive
        let decorated = decorate(head.status, head.headers, version: head.version)
        if slot.version == .http1_0 {
            slots[index].collected = []
            slots[index].streamHead = decorated
            return
        }
        if slot.headRequest {
            emit(slot: id, SharedBytes(HTTPResponseWriter.response(decorated, keepAlive: keepAlive, requestVersion: slot.version,
                                                                   headRequest: true)))
            slots[index].collected = []  // swallow the body
            return
        }
        emit(slot: id, SharedBytes(HTTPResponseWriter.chunkedHead(decorated, keepAlive: keepAlive, requestVersion: slot.version)))
    }

    func streamChunk(slot id: Int, _ bytes: [UInt8]) {
        guard let index = slotIndex(id), slots[index].streaming, !slots[index].finished else { return }
        if slots[index].access != nil, !slots[index].headRequest { slots[index].access!.bytesOut += bytes.count }
        if slots[index].collected != nil {
            if !slots[index].headRequest { slots[index].collected!.append(contentsOf: bytes) }
            return
        }
        emit(slot: id, SharedBytes(HTTPResponseWriter.chunk(bytes)))
    }

    func finishStream(slot id: Int, trailers: HTTPHeaders) {
        guard let index = slotIndex(id), slots[index].streaming, !slots[index].finished else { return }
        let slot = slots[index]
        if let collected = slot.collected {
            if let head = slot.streamHead {
                emit(slot: id, SharedBytes(HTTPResponseWriter.response(head, body: collected, keepAlive: slot.keepAlive,
                                                                       requestVersion: slot.version)))
            }
        } else {
            emit(slot: id, SharedBytes(HTTPResponseWriter.finalChunk(trailers: trailers)))
        }
        logAccess(index: index, status: slot.access?.status ?? 200, bytesOut: slot.access?.bytesOut ?? 0, app: nil, user: nil)
        markFinished(index: slotIndex(id))
    }

    private func decorate(_ status: HTTPStatus, _ headers: HTTPHeaders, version: HTTPVersion = .http1_1) -> HTTPResponseHead {
        var head = HTTPResponseHead(status: status, version: version, headers: headers)
        if let name = server.configuration.serverName, !head.headers.contains("Server") {
            head.headers.add("Server", name)
        }
        return head
    }

    /// Writes bytes for a slot now if it is the oldest one, else keeps them for later.
    private func emit(slot id: Int, _ bytes: SharedBytes) {
        guard let index = slotIndex(id) else { return }
        if index == 0 {
            connection.write(bytes)
        } else {
            slots[index].buffered.append(bytes)
        }
    }

    private func markFinished(index: Int?) {
        guard let index else { return }
        slots[index].finished = true
        if index == 0 { advance() }
    }

    /// Retires finished slots from the front, releasing the next one's buffered output.
    private func advance() {
        while let first = slots.first, first.finished {
            slots.removeFirst()
            if !first.keepAlive {
                stopped = true
                slots.removeAll()
                connection.close()
                return
            }
            guard !slots.isEmpty else { break }
            for chunk in slots[0].buffered { connection.write(chunk) }
            slots[0].buffered.removeAll()
        }
        if slots.isEmpty && closeWhenIdle {
            connection.close()
            return
        }
        upgradeIfReady()
        if readPausedForPipeline && slots.count < server.configuration.maxPipelinedRequests {
            readPausedForPipeline = false
            connection.resumeReading()
            if !processing {
                processEvents()
                updateDeadline()
            }
        }
    }

    // MARK: Access log

    private func noteRoute(slot id: Int, _ pattern: String, index route: Int) {
        if let index = slotIndex(id), slots[index].access != nil {
            slots[index].access!.route = pattern
            slots[index].access!.routeIndex = route
        }
    }

    /// Hands the access log its record of the request in `slots[index]`, and the route's
    /// latency histogram its duration, once.
    private func logAccess(index: Int, status: Int, bytesOut: Int, app: String?, user: String?) {
        guard slots.indices.contains(index), let trace = slots[index].access else { return }
        slots[index].access = nil
        let now = MonotonicClock.now()
        let elapsed = now > trace.startedAt ? now - trace.startedAt : 0
        if let latency = server.routeLatency, trace.routeIndex >= 0 {
            latency.record(loop: connection.loop.index, route: trace.routeIndex, microseconds: Int(elapsed / 1000))
        }
        guard let log = server.configuration.accessLog else { return }
        log(HTTPAccessRecord(method: trace.method, route: trace.route, status: status, durationMicroseconds: Int(elapsed / 1000),
                             bytesIn: trace.bytesIn, bytesOut: bytesOut, client: trace.client ?? remoteAddress?.description,
                             app: app, user: user))
    }

    // MARK: Upgrade

    private func upgradeIfReady() {
        guard let upgrade = pendingUpgrade, slots.count == 1, slots[0].id == upgrade.slot else { return }
        pendingUpgrade = nil
        let request = upgrade.request
        let route = upgrade.route
        let handshake: WebSocketServerHandshake
        do {
            handshake = try WebSocketServerHandshake(request: request.head)
        } catch {
            var response = HTTPResponse.error(error.status, code: error.code.rawValue, message: error.message)
            for field in error.response.headers where !HTTPHeaders.namesEqual(field.name, "Content-Length") {
                response.headers.replace(field.name, field.value)
            }
            complete(slot: upgrade.slot, with: response)
            return
        }
        if let check = route.shouldUpgrade, let refusal = check(request, handshake) {
            complete(slot: upgrade.slot, with: refusal)
            return
        }
        let accepted = handshake.accept(supportedSubprotocols: route.options.subprotocols, deflate: route.options.deflate)
        logAccess(index: 0, status: 101, bytesOut: 0, app: nil, user: nil)
        slots.removeAll()
        connection.write(accepted.responseBytes)
        let leftover = parser.takeUnparsedBytes()
        let socket = WebSocket(connection: connection, role: .server,
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

    // MARK: Graceful shutdown

    func beginGracefulShutdown() {
        // A request whose body is still arriving may finish; no new one starts.
        shutdownRequested = true
        if current == nil { stopped = true }
        if slots.isEmpty && current == nil {
            connection.close()
        } else {
            // Answers still to be written carry `Connection: close` on the last one (stopped
            // is set); the connection closes once they are out.
            closeWhenIdle = true
        }
    }

    func forceClose() { connection.abort(NetError(.closed, "server shut down")) }
}
