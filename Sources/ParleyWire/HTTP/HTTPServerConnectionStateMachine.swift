/// The HTTP/1.1 protocol state of one server connection, without I/O.
///
/// Inputs are received bytes, end of input, the driver's routing decisions and answers,
/// timer ticks and shutdown, each with the time (nanoseconds of any monotonic clock) where
/// it matters; every input returns the ``Action``s the driver performs in order. The machine
/// keeps pipelined answers in request order, sends `100 Continue` only for a body that is
/// wanted, stops reading at the pipeline depth, holds an upgrade until its request is the
/// oldest, watches the head and body clocks (``HTTPRequestDeadline``) and decides when the
/// connection closes. Routing, handlers, WebSocket creation and logging stay with the driver.
///
/// Two actions hand control to the driver and are always the last of their batch: after
/// ``Action/route(slot:head:)`` call ``headRouted(_:now:)``, after
/// ``Action/deliver(slot:head:body:)`` run the handler and call ``proceed(now:)``. The
/// handler may answer synchronously meanwhile; reading resumes only at ``proceed(now:)``, so
/// a request is handled before the next pipelined one is read, as a blocking server would.
public struct HTTPServerConnectionStateMachine: Sendable {
    /// The limits of one connection.
    public struct Configuration: Sendable {
        /// Request size limits.
        public var limits: HTTPRequestParser.Limits
        /// Head and body clocks.
        public var deadlinePolicy: HTTPRequestDeadline.Policy
        /// Requests read ahead of their answers; reading pauses at this many.
        public var maxPipelinedRequests: Int
        /// Added as `Server` to answers that carry none.
        public var serverName: String?

        /// Creates a configuration.
        public init(
            limits: HTTPRequestParser.Limits = .init(), deadlinePolicy: HTTPRequestDeadline.Policy = .init(),
            maxPipelinedRequests: Int = 16, serverName: String? = nil
        ) {
            self.limits = limits
            self.deadlinePolicy = deadlinePolicy
            self.maxPipelinedRequests = maxPipelinedRequests
            self.serverName = serverName
        }
    }

    /// A complete answer with a Content-Length body.
    public struct Response: Sendable, Equatable {
        /// Status and header fields; the framing fields are written by the machine.
        public var head: HTTPResponseHead
        /// The body.
        public var body: [UInt8]

        /// Creates a response.
        public init(head: HTTPResponseHead, body: [UInt8] = []) {
            self.head = head
            self.body = body
        }

        /// The house error shape, `{"error":{"code":"...","message":"..."}}`, as JSON.
        public static func error(_ status: HTTPStatus, code: String, message: String) -> Response {
            let json = "{\"error\":{\"code\":\(JSONWriter.quoted(code)),\"message\":\(JSONWriter.quoted(message))}}"
            return Response(
                head: HTTPResponseHead(status: status, headers: ["Content-Type": "application/json"]),
                body: Array(json.utf8))
        }
    }

    /// What the driver decided about a request head (``Action/route(slot:head:)``).
    public enum HeadDecision: Sendable {
        /// Read the body and deliver the request; `maxBodySize` replaces the default limit.
        case read(maxBodySize: Int?)
        /// Read the body, then offer the upgrade once the request is the oldest unanswered.
        case upgrade
        /// Read (and drop) the body, then answer this (no route, method not allowed...).
        /// With `Expect: 100-continue` it is answered at once instead, and the connection closes.
        case answer(Response)
        /// Answer this at once and close: the body is never read.
        case refuse(Response)
    }

    /// What the driver does, in order.
    public enum Action: Sendable {
        /// A request head arrived for response slot `slot`: route it and call ``headRouted(_:now:)``.
        case route(slot: Int, head: HTTPRequestHead)
        /// A request arrived whole: hand it to its handler, then call ``proceed(now:)``.
        case deliver(slot: Int, head: HTTPRequestHead, body: [UInt8])
        /// The upgrade request of `slot` is the oldest unanswered: call ``upgradeAccepted(slot:response:now:)``
        /// or ``upgradeRefused(slot:_:now:)``.
        case offerUpgrade(slot: Int, head: HTTPRequestHead, body: [UInt8])
        /// Write these bytes.
        case write(SharedBytes)
        /// The answer of `slot` is queued (for the access log): its status, request body bytes
        /// and response body bytes.
        case answered(slot: Int, status: HTTPStatus, bytesIn: Int, bytesOut: Int)
        /// Stop reading from the socket.
        case pauseReading
        /// Read from the socket again.
        case resumeReading
        /// Call ``timerFired(now:)`` at this instant (replacing any earlier timer).
        case scheduleDeadline(at: UInt64)
        /// Drop the timer.
        case cancelDeadline
        /// Close once written output is flushed.
        case close
        /// The socket went idle while the client owed bytes: abort it.
        case abortIdle
        /// The socket belongs to the upgraded protocol now; these bytes arrived for it already.
        case upgrade(leftover: [UInt8])
    }

    /// The request whose head or body is arriving now.
    struct Incoming {
        let slot: Int
        let head: HTTPRequestHead
        let disposition: Disposition
        var body: [UInt8] = []
        var bodyCount = 0
    }

    enum Disposition {
        case deliver
        case upgrade
        case answer(Response)
    }

    /// One answer owed, in request order.
    struct Slot {
        let id: Int
        let headRequest: Bool
        let version: HTTPVersion
        var keepAlive: Bool
        var buffered: [SharedBytes] = []
        var finished = false
        var streaming = false
        /// HTTP/1.0 clients cannot read chunked bodies (and HEAD has none): the stream is collected here.
        var collected: [UInt8]? = nil
        var streamHead: HTTPResponseHead? = nil
        var bytesIn = 0
        var streamStatus = HTTPStatus.ok
        var bytesOut = 0
    }

    /// The limits in force.
    public let configuration: Configuration
    var parser: HTTPRequestParser
    var deadline: HTTPRequestDeadline
    var current: Incoming?
    var slots: [Slot] = []
    var nextSlot = 0
    /// No further requests are read (error, `Connection: close`, upgrade, shutdown, end of input).
    var stopped = false
    /// A read loop is running or waits for the driver (``route``/``deliver``).
    var processing = false
    var awaitingRoute: (slot: Int, head: HTTPRequestHead)?
    var awaitingHandler = false
    var readPaused = false
    var pendingUpgrade: (slot: Int, head: HTTPRequestHead, body: [UInt8])?
    var closeWhenIdle = false
    var headInProgress = false
    var shutdownRequested = false
    /// The instant of the armed timer.
    var timerAt: UInt64?

    /// Creates the state of a connection just accepted.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.parser = HTTPRequestParser(limits: configuration.limits)
        self.deadline = HTTPRequestDeadline(policy: configuration.deadlinePolicy)
    }

    /// Whether no further requests will be read.
    public var isStopped: Bool { stopped }

    // MARK: Inputs

    /// Bytes arrived from the client.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> [Action] {
        guard !stopped else { return [] }
        parser.receive(bytes)
        var actions: [Action] = []
        if !processing {
            processing = true
            readRequests(now: now, into: &actions)
        }
        return actions
    }

    /// Bytes arrived from the client.
    public mutating func receive(_ bytes: [UInt8], now: UInt64) -> [Action] {
        bytes.withUnsafeBytes { receive($0, now: now) }
    }

    /// The driver routed the head of the last ``Action/route(slot:head:)``.
    public mutating func headRouted(_ decision: HeadDecision, now: UInt64) -> [Action] {
        guard let (slot, head) = awaitingRoute else { return [] }
        awaitingRoute = nil
        var actions: [Action] = []
        if begin(slot: slot, head: head, decision, now: now, into: &actions) { return actions }
        readRequests(now: now, into: &actions)
        return actions
    }

    /// The handler of the last ``Action/deliver(slot:head:body:)`` has been called: read on.
    public mutating func proceed(now: UInt64) -> [Action] {
        guard awaitingHandler else { return [] }
        awaitingHandler = false
        var actions: [Action] = []
        readRequests(now: now, into: &actions)
        return actions
    }

    /// The client will send nothing more: answers in progress finish, then the connection closes.
    public mutating func endOfInput() -> [Action] {
        stopped = true
        // A request cut off mid-body can never complete.
        if current != nil || slots.isEmpty { return [.close] }
        closeWhenIdle = true
        return []
    }

    /// The socket's idle timer fired.
    public func idleTimedOut() -> [Action] {
        // Idle while a handler is still working is not the client's fault.
        if !slots.isEmpty && current == nil { return [] }
        return [.abortIdle]
    }

    /// The timer of ``Action/scheduleDeadline(at:)`` fired.
    public mutating func timerFired(now: UInt64) -> [Action] {
        timerAt = nil
        var actions: [Action] = []
        checkDeadline(now: now, into: &actions)
        return actions
    }

    /// The server shuts down: a request whose body is arriving may finish, no new one starts,
    /// and the connection closes once the answers owed are written.
    public mutating func shutdown() -> [Action] {
        shutdownRequested = true
        if current == nil { stopped = true }
        if slots.isEmpty && current == nil { return [.close] }
        // The last answer carries `Connection: close` (stopped is set by now or when the
        // request in progress ends).
        closeWhenIdle = true
        return []
    }

    /// The socket closed: nothing more will be written.
    public mutating func connectionClosed() -> [Action] {
        let armed = timerAt != nil
        timerAt = nil
        deadline.finished()
        stopped = true
        current = nil
        slots.removeAll()
        pendingUpgrade = nil
        return armed ? [.cancelDeadline] : []
    }

    // MARK: Reading

    /// Reads requests until input runs out, the pipeline is full, reading stops, or the
    /// driver must act; then sets the request clock.
    mutating func readRequests(now: UInt64, into actions: inout [Action]) {
        while !stopped {
            if slots.count >= configuration.maxPipelinedRequests && current == nil {
                if !readPaused {
                    readPaused = true
                    actions.append(.pauseReading)
                }
                break
            }
            let before = parser.bufferedByteCount
            guard let event = parser.nextEvent() else {
                // Bytes of a new request were buffered or consumed (header lines) without a
                // head yet: a head is in progress.
                if current == nil && (parser.bufferedByteCount > 0 || parser.bufferedByteCount < before) {
                    headInProgress = true
                }
                break
            }
            if handle(event, now: now, into: &actions) { return }
        }
        processing = false
        updateDeadline(now: now, into: &actions)
    }

    /// Handles one parser event; true when the driver must act before reading on.
    mutating func handle(_ event: HTTPRequestParser.Event, now: UInt64, into actions: inout [Action]) -> Bool {
        switch event {
        case .head(let head):
            headInProgress = false
            let slot = openSlot(for: head)
            awaitingRoute = (slot, head)
            actions.append(.route(slot: slot, head: head))
            return true
        case .body(let piece):
            if current != nil {
                current!.bodyCount += piece.count
                if case .answer = current!.disposition {} else { current!.body.append(contentsOf: piece) }
            }
            deadline.bodyReceived(piece.count)
            return false
        case .end:
            headInProgress = false
            return finishRequest(into: &actions, now: now)
        case .error(let error):
            failParse(error, now: now, into: &actions)
            return false
        }
    }

    /// Starts reading a routed request's body; true when the driver must act before reading on.
    mutating func begin(
        slot: Int, head: HTTPRequestHead, _ decision: HeadDecision, now: UInt64,
        into actions: inout [Action]
    ) -> Bool {
        let disposition: Disposition
        switch decision {
        case .refuse(let response):
            answerAndStop(slot: slot, response, now: now, into: &actions)
            return false
        case .answer(let response):
            disposition = .answer(response)
        case .read(let maxBodySize):
            if let maxBodySize { parser.maxBodySize = maxBodySize }
            disposition = .deliver
        case .upgrade:
            disposition = .upgrade
        }
        switch head.expectation {
        case .unsupported(let expectation):
            answerAndStop(
                slot: slot,
                .error(
                    .expectationFailed, code: "expectation_failed",
                    message: "unsupported expectation: \(expectation)"), now: now, into: &actions)
            return false
        case .continue:
            if case .answer(let response) = disposition {
                // Refusing without 100 Continue: the client may or may not send the body,
                // so the connection's framing is unknowable afterwards.
                answerAndStop(slot: slot, response, now: now, into: &actions)
                return false
            }
            current = Incoming(slot: slot, head: head, disposition: disposition)
            // The parser decides the body limit first (a Content-Length over it fails now).
            let next = parser.nextEvent()
            if case .error(let error)? = next {
                failParse(error, now: now, into: &actions)
                return false
            }
            emit(slot: slot, SharedBytes(HTTPResponseWriter.continueResponse), into: &actions)
            deadline.bodyStarted(at: now)
            if let next { return handle(next, now: now, into: &actions) }
            return false
        case .none:
            current = Incoming(slot: slot, head: head, disposition: disposition)
            deadline.bodyStarted(at: now)
            return false
        }
    }

    /// The request in progress arrived whole; true when the driver must act before reading on.
    mutating func finishRequest(into actions: inout [Action], now: UInt64) -> Bool {
        guard let request = current else { return false }
        current = nil
        deadline.finished()
        if !request.head.keepAlive || shutdownRequested { stopped = true }
        if let index = slotIndex(request.slot) { slots[index].bytesIn = request.bodyCount }
        switch request.disposition {
        case .answer(let response):
            complete(slot: request.slot, response, now: now, into: &actions)
            return false
        case .deliver:
            awaitingHandler = true
            actions.append(.deliver(slot: request.slot, head: request.head, body: request.body))
            return true
        case .upgrade:
            stopped = true
            pendingUpgrade = (request.slot, request.head, request.body)
            offerUpgradeIfReady(into: &actions)
            return false
        }
    }

    mutating func failParse(_ error: HTTPParseError, now: UInt64, into actions: inout [Action]) {
        let slot = current?.slot ?? openSlot(for: nil)
        current = nil
        answerAndStop(slot: slot, .error(error.status, code: error.code, message: error.message), now: now, into: &actions)
    }

    // MARK: Clocks

    /// Tells the deadline what is arriving now and keeps the timer no later than it asks.
    mutating func updateDeadline(now: UInt64, into actions: inout [Action]) {
        if stopped {
            deadline.finished()
        } else if current == nil {
            // A body in progress started its own clock in `begin`.
            if headInProgress { deadline.headStarted(at: now) } else { deadline.finished() }
        }
        checkDeadline(now: now, into: &actions)
    }

    mutating func checkDeadline(now: UInt64, into actions: inout [Action]) {
        switch deadline.verdict(at: now) {
        case .idle:
            cancelTimer(into: &actions)
        case .wait(let until):
            // A timer already due no later re-checks then; bytes arriving meanwhile only
            // ever move the deadline later.
            if let armed = timerAt, armed <= until { return }
            timerAt = until
            actions.append(.scheduleDeadline(at: until))
        case .expired(let expiry):
            cancelTimer(into: &actions)
            deadline.finished()
            timedOut(expiry, now: now, into: &actions)
        }
    }

    mutating func cancelTimer(into actions: inout [Action]) {
        guard timerAt != nil else { return }
        timerAt = nil
        actions.append(.cancelDeadline)
    }

    /// Answers 408 for a request that broke a deadline, and closes.
    mutating func timedOut(_ expiry: HTTPRequestDeadline.Expiry, now: UInt64, into actions: inout [Action]) {
        let message =
            switch expiry {
            case .head: "the request head took too long to arrive"
            case .body: "the request body took too long to arrive"
            case .bodyRate: "the request body arrived too slowly"
            }
        let slot = current?.slot ?? openSlot(for: nil)
        answerAndStop(
            slot: slot, .error(HTTPStatus(408), code: "request_timeout", message: message), now: now,
            into: &actions)
    }
}
