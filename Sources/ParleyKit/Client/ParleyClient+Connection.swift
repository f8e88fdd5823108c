import ParleyWire

/// The realtime connection: connect, reconnect by close-code class, liveness.
extension ParleyClient {
    /// Starts connecting (and reconnecting whenever the connection is lost) until ``disconnect()``.
    public func connect() async {
        guard !wantsConnection, !isClosed else { return }
        wantsConnection = true
        _ = try? await userID()
        publish(.connecting)
        connectionTask = Task { await self.runConnectionLoop() }
        flushOutbox()
    }

    /// Closes the connection and stops reconnecting; the outbox keeps its messages.
    public func disconnect() async {
        wantsConnection = false
        connectionTask?.cancel()
        connectionTask = nil
        connection?.close(code: 1000)
        connection = nil
        socketID = nil
        outboxRetryTask?.cancel()
        outboxRetryTask = nil
        for id in rooms.keys { rooms[id]?.subscribed = false; rooms[id]?.subscribing = false }
        publish(.idle)
    }

    /// Ends every stream and the connection; the client is unusable afterwards.
    public func close() async {
        isClosed = true
        flushTask?.cancel()
        await disconnect()
        for room in rooms.values { room.events?.finish() }
        rooms = [:]
        userHub.finish()
        stateHub.finish()
    }

    private func runConnectionLoop() async {
        var attempt = 0
        while wantsConnection, !Task.isCancelled {
            let (code, reason, established) = await runOneConnection()
            guard wantsConnection, !Task.isCancelled else { return }
            if established { attempt = 0 }
            attempt += 1
            switch configuration.reconnect.decision(closeCode: code, attempt: attempt, random: random()) {
            case .stop:
                wantsConnection = false
                publish(.offline(reason: reason))
                return
            case .retry(let delay):
                publish(.reconnecting(attempt: attempt, delay: delay))
                if delay > .zero {
                    do { try await clock.sleep(for: delay) } catch { return }
                }
            }
        }
    }

    /// One connection from open to close: the close code, a reason, and whether it got as far
    /// as `connection_established`.
    private func runOneConnection() async -> (code: Int?, reason: String, established: Bool) {
        let opened: any RealtimeConnection
        do {
            opened = try await realtime.connect(url: configuration.resolvedRealtimeURL)
        } catch {
            return (nil, error.message, false)
        }
        guard wantsConnection else {
            opened.close(code: 1000)
            return (1000, "disconnected", false)
        }
        generation += 1
        let current = generation
        connection = opened
        lastServerError = nil
        lastFrameAt = clock.now()
        let watchdog = Task { await self.watchLiveness(generation: current) }
        var established = false
        var closeCode: Int? = 1006
        var closeReason = "connection lost"
        for await frame in opened.frames {
            switch frame {
            case .text(let bytes):
                handleFrame(bytes)
                if socketID != nil { established = true }
            case .closed(let code, let reason):
                closeCode = code
                closeReason = reason.isEmpty ? (lastServerError ?? "closed (\(code))") : reason
            }
        }
        watchdog.cancel()
        if generation == current {
            connection = nil
            socketID = nil
            for id in rooms.keys { rooms[id]?.subscribed = false; rooms[id]?.subscribing = false }
        }
        return (closeCode, closeReason, established)
    }

    /// Pings after ``ParleyConfiguration/activityTimeout`` of silence; closes (4201) when the
    /// server stays silent as long again, so the reconnect logic takes over.
    private func watchLiveness(generation current: Int) async {
        let timeout = ReconnectPolicy.milliseconds(configuration.activityTimeout)
        var pinged = false
        while !Task.isCancelled, generation == current {
            let silentFor = clock.now() - lastFrameAt
            if silentFor >= timeout {
                if pinged {
                    connection?.close(code: 4201)
                    return
                }
                pinged = true
                send(PusherMessage(event: "pusher:ping", data: .object([:])))
                do { try await clock.sleep(for: configuration.activityTimeout) } catch { return }
            } else {
                pinged = false
                do { try await clock.sleep(for: .milliseconds(timeout - silentFor)) } catch { return }
            }
        }
    }

    func send(_ message: PusherMessage) {
        connection?.send(message.serialized())
    }

    /// The socket is up: mark online, sign in, subscribe every known room, flush the outbox.
    func established(socketID id: String) {
        socketID = id
        publish(.online)
        outboxRetryAttempt = 0
        let current = generation
        Task { await self.signIn(generation: current) }
        for roomID in rooms.keys { subscribeIfOnline(roomID) }
        flushOutbox()
    }

    private func signIn(generation current: Int) async {
        guard let socketID, generation == current else { return }
        do {
            let reply = try await api.json("POST", "/v1/channels/user-auth", json: .object(["socket_id": .string(socketID)]))
            let reader = try JSONReader(reply, "user auth")
            guard generation == current else { return }
            send(PusherMessage(event: "pusher:signin",
                               data: .object(["auth": .string(try reader.string("auth")), "user_data": .string(try reader.string("user_data"))])))
        } catch {
            lastServerError = "sign-in failed: \(error.message)"
        }
    }

    /// Subscribes a room's channel when the socket is up and it isn't subscribed yet.
    func subscribeIfOnline(_ roomID: String) {
        guard let socketID, let room = rooms[roomID], !room.subscribed, !room.subscribing else { return }
        rooms[roomID]?.subscribing = true
        let current = generation
        Task { await self.subscribe(roomID, socketID: socketID, generation: current) }
    }

    private func subscribe(_ roomID: String, socketID: String, generation current: Int) async {
        let channel = "private-room-" + roomID
        do {
            let reply = try await api.json("POST", "/v1/channels/auth",
                                           json: .object(["socket_id": .string(socketID), "channel_name": .string(channel)]))
            let auth = try JSONReader(reply, "channel auth").string("auth")
            guard generation == current else { return }
            send(PusherMessage(event: "pusher:subscribe", data: .object(["channel": .string(channel), "auth": .string(auth)])))
        } catch {
            guard generation == current else { return }
            rooms[roomID]?.subscribing = false
            lastServerError = "subscribing to \(roomID) failed: \(error.message)"
            // Transient trouble: try again on this socket after a pause; a refusal waits for the next connection.
            guard error.isTransient else { return }
            do { try await clock.sleep(for: configuration.reconnect.initialDelay) } catch { return }
            if generation == current { subscribeIfOnline(roomID) }
        }
    }
}
