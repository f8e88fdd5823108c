import ParleyWire

/// The outbox: messages are written to disk before they are sent and removed only when the
/// server has them; each keeps its client id for life, so a resend can never double.
extension ParleyClient {
    /// Queues a message: durable at once, delivered as soon as the server can be reached,
    /// even after a restart. Returns the outbox entry (its client id names the message).
    @discardableResult
    public func send(_ parts: [MessagePart], to roomID: String) throws(ParleyError) -> PendingMessage {
        guard !parts.isEmpty else { throw ParleyError(.invalidArgument, "a message needs at least one part") }
        let entry = PendingMessage(clientID: Self.newClientID(), roomID: roomID, parts: parts, createdAt: clock.now())
        try store.enqueue(entry)
        outboxChanged(roomID)
        flushOutbox()
        return entry
    }

    /// Queues a text message.
    @discardableResult
    public func send(text: String, to roomID: String) throws(ParleyError) -> PendingMessage {
        try send([.text(text)], to: roomID)
    }

    /// The outbox, oldest first.
    public func outbox() throws(ParleyError) -> [PendingMessage] { try store.outbox() }

    /// Sends a failed message again (same client id).
    public func retry(clientID: String) throws(ParleyError) {
        guard let entry = try store.outbox().first(where: { $0.clientID == clientID }) else { return }
        try store.markPending(clientID)
        outboxChanged(entry.roomID)
        flushOutbox()
    }

    /// Drops a message from the outbox (a failed one the user gave up on).
    public func discard(clientID: String) throws(ParleyError) {
        guard let entry = try store.outbox().first(where: { $0.clientID == clientID }) else { return }
        try store.remove(clientID)
        outboxChanged(entry.roomID)
    }

    func outboxChanged(_ roomID: String) {
        let entries = ((try? store.outbox()) ?? []).filter { $0.roomID == roomID }
        emit(.outbox(entries), room: roomID)
    }

    /// Starts sending the outbox unless a run is going (then it runs once more after).
    func flushOutbox() {
        guard !isClosed else { return }
        if flushTask != nil {
            flushAgain = true
            return
        }
        flushTask = Task { await self.runFlush() }
    }

    private func runFlush() async {
        repeat {
            flushAgain = false
            await flushPendingOnce()
        } while flushAgain
        flushTask = nil
    }

    private func flushPendingOnce() async {
        guard let entries = try? store.outbox() else { return }
        for entry in entries where entry.state == .pending {
            // A pending entry may have been discarded meanwhile.
            guard (try? store.outbox().contains { $0.clientID == entry.clientID && $0.state == .pending }) == true else { continue }
            do {
                let message = try await post(entry)
                try? store.remove(entry.clientID)
                outboxRetryAttempt = 0
                ingest([message], room: entry.roomID)
                outboxChanged(entry.roomID)
            } catch where error.isTransient {
                scheduleOutboxRetry(after: error.retryAfter)
                return
            } catch {
                try? store.markFailed(entry.clientID, code: error.serverCode ?? error.code.rawValue, message: error.message)
                outboxChanged(entry.roomID)
            }
        }
    }

    private func post(_ entry: PendingMessage) async throws(ParleyError) -> ChatMessage {
        let body: JSONValue = .object(["client_id": .string(entry.clientID), "parts": .array(entry.parts.map(\.json))])
        return try ChatMessage(json: try await api.json("POST", ChatAPI.path("rooms", entry.roomID, "messages"), json: body))
    }

    /// Tries the outbox again after a backoff delay (or the server's Retry-After).
    private func scheduleOutboxRetry(after seconds: Int?) {
        guard outboxRetryTask == nil else { return }
        outboxRetryAttempt += 1
        let delay: Duration = seconds.map { .seconds($0) }
            ?? configuration.reconnect.backoff(attempt: outboxRetryAttempt, random: random())
        outboxRetryTask = Task {
            do { try await self.clock.sleep(for: delay) } catch { return }
            self.outboxRetryFired()
        }
    }

    private func outboxRetryFired() {
        outboxRetryTask = nil
        flushOutbox()
    }
}
