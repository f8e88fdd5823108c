import ParleyWireCore

/// The outbox: messages are written to disk before they are sent and removed only when the
/// server has them; each keeps its client id for life, so a resend can never double. Entries
/// belong to the user who wrote them: a client sends only its own user's entries, whatever
/// else shares the store file.
extension ParleyClient {
    /// Sends a message and waits for the server: returns ``SendResult/delivered(_:)`` with the
    /// server's message, or ``SendResult/queued(_:)`` when the server cannot be reached (the
    /// message then waits in the outbox, on disk, and is delivered exactly once later). Throws
    /// when the server refuses it (no such room, not a member, invalid): nothing is left queued.
    @discardableResult
    public func send(_ parts: [MessagePart], to roomID: String) async throws(ParleyError) -> SendResult {
        let entry = try await write(parts, to: roomID)
        // The flush starts inside, after the waiter is registered, so its answer cannot be missed.
        let outcome = await withCheckedContinuation { continuation in
            sendWaiters[entry.clientID] = continuation
            flushOutbox()
        }
        return try outcome.get()
    }

    /// Sends a text message; see ``send(_:to:)``.
    @discardableResult
    public func send(text: String, to roomID: String) async throws(ParleyError) -> SendResult {
        try await send([.text(text)], to: roomID)
    }

    /// Queues a message without waiting: durable at once, delivered as soon as the server can
    /// be reached, even after a restart. A refusal marks the entry failed (see
    /// ``PendingMessage/State-swift.enum/failed(code:message:)``). Returns the outbox entry.
    @discardableResult
    public func enqueue(_ parts: [MessagePart], to roomID: String) async throws(ParleyError) -> PendingMessage {
        let entry = try await write(parts, to: roomID)
        flushOutbox()
        return entry
    }

    /// Writes a new outbox entry for the signed-in user.
    private func write(_ parts: [MessagePart], to roomID: String) async throws(ParleyError) -> PendingMessage {
        try closedFlag.check()
        guard !parts.isEmpty else { throw ParleyError(.invalidArgument, "a message needs at least one part") }
        let user = try await userID()
        let entry = PendingMessage(clientID: Self.newClientID(), roomID: roomID, parts: parts, createdAt: clock.now())
        try store.enqueue(entry, user: user)
        outboxChanged(roomID)
        return entry
    }

    /// The signed-in user's outbox, oldest first.
    public func outbox() async throws(ParleyError) -> [PendingMessage] {
        let user = try await userID()
        return try store.outbox(user: user)
    }

    /// Sends a failed message again (same client id).
    public func retry(clientID: String) async throws(ParleyError) {
        let user = try await userID()
        guard let entry = try store.outbox(user: user).first(where: { $0.clientID == clientID }) else {
            throw ParleyError(.invalidArgument, "no outbox entry \(clientID)")
        }
        try store.markPending(clientID)
        outboxChanged(entry.roomID)
        flushOutbox()
    }

    /// Drops a message from the outbox (a failed one the user gave up on).
    public func discard(clientID: String) async throws(ParleyError) {
        let user = try await userID()
        guard let entry = try store.outbox(user: user).first(where: { $0.clientID == clientID }) else {
            throw ParleyError(.invalidArgument, "no outbox entry \(clientID)")
        }
        try store.remove(clientID)
        outboxChanged(entry.roomID)
    }

    func outboxChanged(_ roomID: String) {
        guard let entries = storeRead(roomID, { store, user throws(ParleyError) in try store.outbox(user: user) }) else { return }
        emit(.outbox(entries.filter { $0.roomID == roomID }), room: roomID)
    }

    /// Starts sending the outbox unless a run is going (then it runs once more after).
    func flushOutbox() {
        guard !isClosed else { return }
        if flushTask != nil {
            flushAgain = true
            return
        }
        let weak = WeakClient(self)
        flushTask = Task { await weak.value?.runFlush() }
    }

    private func runFlush() async {
        repeat {
            flushAgain = false
            await flushPendingOnce()
        } while flushAgain && !isClosed
        flushTask = nil
        // A waiting send whose entry was not tried (it was marked failed, or the run stopped).
        resolveWaitersQueued()
    }

    private func flushPendingOnce() async {
        let user: String
        do { user = try await userID() } catch {
            // No user, no outbox to send: waiters learn it now, the entries stay for later.
            report(.backgroundRequest, error)
            if error.isSignInFailure { resolveWaiters(failure: error) } else { resolveWaitersQueued() }
            return
        }
        guard let entries = storeRead(nil, { store, _ throws(ParleyError) in try store.outbox(user: user) }) else {
            resolveWaitersQueued()
            return
        }
        for entry in entries where entry.state == .pending {
            // A pending entry may have been discarded meanwhile.
            let stillPending = storeRead(entry.roomID) { store, _ throws(ParleyError) in
                try store.outbox(user: user).contains { $0.clientID == entry.clientID && $0.state == .pending }
            }
            guard stillPending == true else { continue }
            do {
                let message = try await post(entry)
                storeWrite(entry.roomID) { store throws(ParleyError) in try store.remove(entry.clientID) }
                outboxRetryAttempt = 0
                ingest([message], room: entry.roomID)
                outboxChanged(entry.roomID)
                sendWaiters.removeValue(forKey: entry.clientID)?.resume(returning: .success(.delivered(message)))
            } catch  where error.isTransient {
                report(.backgroundRequest, error, room: entry.roomID)
                scheduleOutboxRetry(after: error.retryAfter)
                resolveWaitersQueued()
                return
            } catch  where error.code == .closed {
                resolveWaiters(failure: error)
                return
            } catch {
                refused(entry, error)
            }
        }
    }

    /// The server refused an entry: a waiting ``send(_:to:)`` throws and the entry goes;
    /// an entry queued earlier stays, marked failed, for the app to retry or discard.
    private func refused(_ entry: PendingMessage, _ error: ParleyError) {
        if let waiter = sendWaiters.removeValue(forKey: entry.clientID) {
            storeWrite(entry.roomID) { store throws(ParleyError) in try store.remove(entry.clientID) }
            waiter.resume(returning: .failure(error))
        } else {
            report(.backgroundRequest, error, room: entry.roomID)
            storeWrite(entry.roomID) { store throws(ParleyError) in
                try store.markFailed(entry.clientID, code: error.serverCode ?? error.code.rawValue, message: error.message)
            }
        }
        outboxChanged(entry.roomID)
    }

    /// Every waiting send whose entry is still in the outbox learns it is queued.
    private func resolveWaitersQueued() {
        guard !sendWaiters.isEmpty else { return }
        let entries = storeRead(nil) { store, user throws(ParleyError) in try store.outbox(user: user) } ?? []
        for entry in entries {
            sendWaiters.removeValue(forKey: entry.clientID)?.resume(returning: .success(.queued(entry)))
        }
    }

    private func resolveWaiters(failure error: ParleyError) {
        let waiters = sendWaiters
        sendWaiters = [:]
        for waiter in waiters.values { waiter.resume(returning: .failure(error)) }
    }

    private func post(_ entry: PendingMessage) async throws(ParleyError) -> ChatMessage {
        let body: JSONValue = .object(["client_id": .string(entry.clientID), "parts": .array(entry.parts.map(\.json))])
        return try ChatMessage(json: try await api.json("POST", ChatAPI.path("rooms", entry.roomID, "messages"), json: body))
    }

    /// Sends the outbox now instead of after a pending retry's backoff.
    func flushOutboxNow() {
        guard outboxRetryTask != nil else { return }
        outboxRetryTask?.cancel()
        outboxRetryTask = nil
        flushOutbox()
    }

    /// Tries the outbox again after a backoff delay (or the server's Retry-After).
    private func scheduleOutboxRetry(after seconds: Int?) {
        guard outboxRetryTask == nil else { return }
        outboxRetryAttempt += 1
        let delay: Duration =
            seconds.map { .seconds($0) }
            ?? configuration.reconnect.backoff(attempt: outboxRetryAttempt, random: random())
        let weak = WeakClient(self), clock = self.clock
        outboxRetryTask = Task {
            do { try await clock.sleep(for: delay) } catch { return }
            await weak.value?.outboxRetryFired()
        }
    }

    private func outboxRetryFired() {
        outboxRetryTask = nil
        flushOutbox()
    }
}
