import ParleyWireCore

/// The realtime connection: sign-in, reconnect by close-code class, liveness.
///
/// The loops run in tasks that hold the client only weakly (``WeakClient``): between events
/// nothing keeps a dropped client alive, and its deinit closes the socket, which ends them.
extension ParleyClient {
    /// Starts connecting (and reconnecting whenever the connection is lost) until ``disconnect()``.
    /// Watch ``connectionStates()``: ``ConnectionState/signingIn`` first, then
    /// ``ConnectionState/online``, or ``ConnectionState/authenticationFailed(_:)`` when no token
    /// can be had or the server refuses it.
    public func connect() throws(ParleyError) {
        try closedFlag.check()
        guard !wantsConnection else { return }
        wantsConnection = true
        publish(.signingIn)
        let weak = WeakClient(self)
        let clock = self.clock
        connectionTask = Task { await Self.runConnectionLoop(weak, clock: clock) }
        flushOutbox()
    }

    /// The device's network changed (a new path, or the app came back to the foreground): a
    /// client waiting out a reconnect backoff tries again at once, and the outbox is retried.
    /// Call it from `NWPathMonitor` or the scene's phase changes; it does nothing while online.
    public func networkDidChange() throws(ParleyError) {
        try closedFlag.check()
        flushOutboxNow()
        guard wantsConnection, waitingToReconnect else { return }
        waitingToReconnect = false
        connectionTask?.cancel()
        let weak = WeakClient(self)
        let clock = self.clock
        connectionTask = Task { await Self.runConnectionLoop(weak, clock: clock) }
    }

    /// Closes the connection and stops reconnecting; the outbox keeps its messages.
    public func disconnect() {
        stopConnection()
        publish(.idle)
    }

    /// Ends every stream and the connection; every call afterwards throws
    /// ``ParleyError/Code/closed``. The outbox and cache stay on disk for the next client.
    public func close() {
        guard !isClosed else { return }
        closedFlag.close()
        flushTask?.cancel()
        for task in cursorTasks.values { task.cancel() }
        cursorTasks = [:]
        stopConnection()
        let closed = ParleyError(.closed, "the client was closed before the message was sent")
        for waiter in sendWaiters.values { waiter.resume(returning: .failure(closed)) }
        sendWaiters = [:]
        for room in rooms.values { room.events?.finish() }
        rooms = [:]
        userHub.finish()
        blocksHub.finish()
        stateHub.finish()
    }

    private func stopConnection() {
        wantsConnection = false
        connectionTask?.cancel()
        connectionTask = nil
        connection?.close(code: 1000)
        connection = nil
        socketID = nil
        signedIn = false
        outboxRetryTask?.cancel()
        outboxRetryTask = nil
        for id in rooms.keys { rooms[id]?.subscribed = false; rooms[id]?.subscribing = false }
    }

    /// How one connection attempt ended.
    enum AttemptEnd: Sendable {
        /// The connection closed (or never opened): the close code, a reason, and whether it
        /// got as far as `connection_established`.
        case closed(code: Int?, reason: String, established: Bool)
        /// No token, or the server refused it: retrying unchanged cannot help.
        case signInFailed(ParleyError)
        /// The client was disconnected, closed or dropped meanwhile.
        case stopped
    }

    /// What opening a connection gave.
    enum OpenOutcome: Sendable {
        case opened(any RealtimeConnection, generation: Int)
        case ended(AttemptEnd)
    }

    private static func runConnectionLoop(_ weak: WeakClient, clock: any ParleyClock) async {
        var attempt = 0
        while !Task.isCancelled {
            let end = await runOneConnection(weak)
            guard let delay = await weak.value?.attemptEnded(end, attempt: &attempt) else { return }
            if delay > .zero {
                do { try await clock.sleep(for: delay) } catch { return }
            }
        }
    }

    /// Decides what follows an attempt: nil to stop, else the delay before the next one.
    private func attemptEnded(_ end: AttemptEnd, attempt: inout Int) -> Duration? {
        guard wantsConnection, !Task.isCancelled else { return nil }
        switch end {
        case .stopped:
            return nil
        case .signInFailed(let error):
            signInFailed(error)
            return nil
        case .closed(let code, let reason, let established):
            if established { attempt = 0 }
            attempt += 1
            if code == 4009 {
                signInFailed(ParleyError(.server, reason, status: 401, serverCode: "connection_unauthorized"))
                return nil
            }
            switch configuration.reconnect.decision(closeCode: code, attempt: attempt, random: random()) {
            case .stop:
                wantsConnection = false
                publish(.offline(reason: reason))
                return nil
            case .retry(let delay):
                publish(.reconnecting(attempt: attempt, delay: delay))
                waitingToReconnect = delay > .zero
                return delay
            }
        }
    }

    /// The user cannot be signed in: stop and say so.
    func signInFailed(_ error: ParleyError) {
        report(.signIn, error)
        stopConnection()
        publish(.authenticationFailed(error))
    }

    /// One connection from open to close. The client is held only while a frame is handled.
    private static func runOneConnection(_ weak: WeakClient) async -> AttemptEnd {
        let opened: (connection: any RealtimeConnection, generation: Int)
        switch await weak.value?.open() {
        case .opened(let connection, let generation)?: opened = (connection, generation)
        case .ended(let end)?: return end
        case nil: return .stopped
        }
        let watchdog = Task { await Self.watchLiveness(weak, generation: opened.generation) }
        defer { watchdog.cancel() }
        var established = false
        var closeCode: Int? = 1006
        var closeReason = "connection lost"
        for await frame in opened.connection.frames {
            guard let client = weak.value else {
                opened.connection.close(code: 1000)
                return .stopped
            }
            switch frame {
            case .text(let bytes):
                if await client.handleFrame(bytes) { established = true }
            case .closed(let code, let reason):
                closeCode = code
                closeReason = await client.closeReason(reason, code: code)
            }
        }
        await weak.value?.connectionEnded(generation: opened.generation)
        return .closed(code: closeCode, reason: closeReason, established: established)
    }

    /// Gets the user's token (a sign-in failure ends the attempts) and opens the socket.
    private func open() async -> OpenOutcome {
        waitingToReconnect = false
        do {
            _ = try await tokens.token()
            _ = try await userID()
        } catch  where error.isSignInFailure {
            return .ended(.signInFailed(error))
        } catch {
            report(.signIn, error)
            return .ended(.closed(code: nil, reason: error.message, established: false))
        }
        let opened: any RealtimeConnection
        do {
            opened = try await realtime.connect(url: configuration.resolvedRealtimeURL)
        } catch {
            report(.connection, error)
            return .ended(.closed(code: nil, reason: error.message, established: false))
        }
        guard wantsConnection, !isClosed else {
            opened.close(code: 1000)
            return .ended(.stopped)
        }
        generation += 1
        connection = opened
        lastServerError = nil
        lastFrameAt = clock.now()
        return .opened(opened, generation: generation)
    }

    private func closeReason(_ reason: String, code: Int) -> String {
        reason.isEmpty ? (lastServerError ?? "closed (\(code))") : reason
    }

    private func connectionEnded(generation current: Int) {
        guard generation == current else { return }
        connection = nil
        socketID = nil
        signedIn = false
        for id in rooms.keys { rooms[id]?.subscribed = false; rooms[id]?.subscribing = false }
    }

    /// Pings after ``ParleyConfiguration/activityTimeout`` of silence; closes (4201) when the
    /// server stays silent as long again, so the reconnect logic takes over.
    private static func watchLiveness(_ weak: WeakClient, generation current: Int) async {
        var pinged = false
        while !Task.isCancelled {
            guard let (clock, delay) = await weak.value?.livenessStep(generation: current, pinged: &pinged) else { return }
            do { try await clock.sleep(for: delay) } catch { return }
        }
    }

    /// One look at the connection's silence: nil when the watch is over, else how long to sleep.
    private func livenessStep(generation current: Int, pinged: inout Bool) -> (any ParleyClock, Duration)? {
        guard generation == current, connection != nil else { return nil }
        let timeout = ReconnectPolicy.milliseconds(configuration.activityTimeout)
        let silentFor = clock.now() - lastFrameAt
        guard silentFor >= timeout else {
            pinged = false
            return (clock, .milliseconds(timeout - silentFor))
        }
        if pinged {
            connection?.close(code: 4201)
            return nil
        }
        pinged = true
        send(PusherMessage(event: "pusher:ping", data: .object([:])))
        return (clock, configuration.activityTimeout)
    }

    func send(_ message: PusherMessage) {
        connection?.send(message.serialized())
    }

    /// The socket is up: sign in, subscribe every known room, flush the outbox. The state
    /// becomes ``ConnectionState/online`` when the server confirms the sign-in.
    func established(socketID id: String) {
        socketID = id
        outboxRetryAttempt = 0
        let current = generation
        let weak = WeakClient(self)
        Task { await weak.value?.signIn(generation: current) }
        for roomID in rooms.keys { subscribeIfOnline(roomID) }
        flushOutbox()
    }

    /// The server confirmed the sign-in: events for the user flow from now on.
    func signInSucceeded() {
        signedIn = true
        publish(.online)
        refreshBlocksAfterSignIn()
    }

    private func signIn(generation current: Int) async {
        guard let socketID, generation == current else { return }
        do {
            let reply = try await api.json("POST", "/v1/channels/user-auth", json: .object(["socket_id": .string(socketID)]))
            let reader = try JSONReader(reply, "user auth")
            guard generation == current else { return }
            send(
                PusherMessage(
                    event: "pusher:signin",
                    data: .object(["auth": .string(try reader.string("auth")), "user_data": .string(try reader.string("user_data"))])))
        } catch  where error.isSignInFailure {
            guard generation == current else { return }
            signInFailed(error)
        } catch {
            guard generation == current else { return }
            report(.signIn, error)
            lastServerError = "sign-in failed: \(error.message)"
            // Transient: drop this socket so the reconnect logic signs in again after a backoff.
            connection?.close(code: 4100)
        }
    }

    /// Subscribes a room's channel when the socket is up and it isn't subscribed yet.
    func subscribeIfOnline(_ roomID: String) {
        guard let socketID, let room = rooms[roomID], !room.subscribed, !room.subscribing else { return }
        rooms[roomID]?.subscribing = true
        let current = generation
        let weak = WeakClient(self)
        let clock = self.clock, pause = configuration.reconnect.initialDelay
        Task {
            guard let retry = await weak.value?.subscribe(roomID, socketID: socketID, generation: current), retry else { return }
            do { try await clock.sleep(for: pause) } catch { return }
            await weak.value?.resubscribe(roomID, generation: current)
        }
    }

    private func resubscribe(_ roomID: String, generation current: Int) {
        if generation == current { subscribeIfOnline(roomID) }
    }

    /// Asks for the channel's authorisation and subscribes; true when a transient failure
    /// should be retried on this socket after a pause.
    private func subscribe(_ roomID: String, socketID: String, generation current: Int) async -> Bool {
        let channel = "private-room-" + roomID
        do {
            let reply = try await api.json(
                "POST", "/v1/channels/auth",
                json: .object(["socket_id": .string(socketID), "channel_name": .string(channel)]))
            let auth = try JSONReader(reply, "channel auth").string("auth")
            guard generation == current else { return false }
            send(PusherMessage(event: "pusher:subscribe", data: .object(["channel": .string(channel), "auth": .string(auth)])))
            return false
        } catch {
            guard generation == current else { return false }
            rooms[roomID]?.subscribing = false
            lastServerError = "subscribing to \(roomID) failed: \(error.message)"
            guard error.isTransient else {
                // A refusal (not a member, no such room): tell the room's watchers; the next connection tries again.
                subscriptionFailed(roomID, error)
                return false
            }
            report(.subscription, error, room: roomID)
            return true
        }
    }

    /// A room's subscription was refused: its watchers get the error as an event.
    func subscriptionFailed(_ roomID: String, _ error: ParleyError) {
        report(.subscription, error, room: roomID)
        emit(.subscriptionFailed(error), room: roomID)
    }
}
