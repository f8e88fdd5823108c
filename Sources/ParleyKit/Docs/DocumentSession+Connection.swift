/// The connection: open, sync, reconnect with backoff, close.
extension DocumentSession {
    /// Starts connecting (and reconnecting whenever the connection is lost) until ``close()``.
    public func start() {
        guard runTask == nil, !isClosed else { return }
        setState(.connecting)
        runTask = Task { await self.runConnectionLoop() }
        tickTask = Task { await self.tickLoop() }
    }

    /// Returns once the session is connected and in sync with the server (at once when it is).
    /// - Throws: ``ParleyError/Code/cancelled`` when the session is closed first.
    public func waitUntilSynced() async throws(ParleyError) {
        if state == .synced { return }
        if case .closed(let reason) = state { throw ParleyError(.cancelled, "the document session is closed: \(reason)") }
        let result = await withCheckedContinuation { syncWaiters.append($0) }
        try result.get()
    }

    /// Says goodbye to the others, closes the connection and ends the snapshot streams. Local
    /// edits not yet sent are lost. The session is unusable afterwards.
    public func close() async {
        await close(reason: "closed")
    }

    func close(reason: String) async {
        guard !isClosed else { return }
        if let connection {
            connection.send(replica.leaving(now: clock.now()))
            connection.close(code: 1000)
        }
        connection = nil
        setState(.closed(reason: reason))
        runTask?.cancel()
        tickTask?.cancel()
        hub.finish()
        changeHub.finish()
    }

    private func runConnectionLoop() async {
        var attempt = 0
        var refreshToken = false
        while !isClosed, !Task.isCancelled {
            let ending = await runOneConnection(refreshToken: refreshToken)
            guard !isClosed, !Task.isCancelled else { return }
            if let final = ending.final {
                await close(reason: final)
                return
            }
            if ending.tokenRefused && refreshToken {
                await close(reason: "the server refused the token: \(ending.reason)")
                return
            }
            refreshToken = ending.tokenRefused
            if ending.synced { attempt = 0 }
            attempt += 1
            let delay: Duration
            switch reconnect.decision(closeCode: ending.code, attempt: attempt, random: random()) {
            case .stop:
                await close(reason: ending.reason)
                return
            case .retry(let after):
                delay = after
            }
            setState(.reconnecting(attempt: attempt, delay: delay))
            if delay > .zero {
                do { try await clock.sleep(for: delay) } catch { return }
            }
            guard !isClosed else { return }
            setState(.connecting)
        }
    }

    /// How one connection ended.
    private struct Ending {
        var code: Int?
        var reason: String
        var synced = false
        var tokenRefused = false
        /// Set when trying again cannot help (access refused, document gone).
        var final: String?
    }

    private func runOneConnection(refreshToken: Bool) async -> Ending {
        let opened: any DocumentConnection
        do {
            let token = try await tokens.token(forceRefresh: refreshToken)
            opened = try await transport.connect(url: url, token: token, appID: appID)
        } catch {
            var ending = Ending(code: nil, reason: error.message)
            ending.tokenRefused = error.isAuthenticationFailure
            if error.code == .server, let status = error.status, status == 403 || status == 404 { ending.final = error.message }
            return ending
        }
        guard !isClosed else {
            opened.close(code: 1000)
            return Ending(code: 1000, reason: "closed")
        }
        connection = opened
        setState(.syncing)
        send(replica.opened(now: clock.now()))
        var ending = Ending(code: 1006, reason: "connection lost")
        for await frame in opened.frames {
            switch frame {
            case .binary(let bytes):
                if let denied = handle(bytes) {
                    ending.final = "access refused: \(denied)"
                    opened.close(code: 1000)
                }
                if state == .synced { ending.synced = true }
            case .text:
                continue  // not part of the protocol; the server never sends text
            case .closed(let code, let reason):
                ending.code = code
                ending.reason = reason.isEmpty ? "closed (\(code))" : reason
                if (4400...4499).contains(code) { ending.final = ending.reason }
                if let refusal = Self.refusalOfLocalEdits(code: code, reason: reason) { ending.final = refusal }
            }
        }
        if connection != nil {
            connection = nil
            _ = replica.closed(now: clock.now())
        }
        return ending
    }

    /// The reason to stop for a close that refuses what this replica sent: its unsent edits
    /// would go out again on every reconnect and be refused again (1009: larger than the
    /// server accepts; 1007: an update the server cannot apply). The edits stay readable in
    /// the closed session.
    static func refusalOfLocalEdits(code: Int, reason: String) -> String? {
        let detail = reason.isEmpty ? "" : ": \(reason)"
        switch code {
        case 1009: return "the server refused an edit as too large (1009)\(detail)"
        case 1007: return "the server refused an edit as invalid (1007)\(detail)"
        default: return nil
        }
    }

    /// Handles one message; returns the server's reason when it refused access.
    private func handle(_ bytes: [UInt8]) -> String? {
        let outcome = replica.receive(bytes, now: clock.now())
        if let rejection = outcome.rejection {
            diagnostics?(ParleyDiagnostic(.decoding, ParleyError(.decoding, "document \(url): \(rejection)")))
        }
        send(outcome.replies)
        if !outcome.changedRoots.isEmpty {
            changeHub.send(DocumentChange(roots: outcome.changedRoots, isLocal: false, version: replica.version))
        }
        if replica.phase == .synced, state == .syncing {
            setState(.synced)
        } else if outcome.textChanged || outcome.peersChanged || outcome.rejected {
            publish()
        }
        return outcome.denied
    }

    private func tickLoop() async {
        while !isClosed {
            do { try await clock.sleep(for: Self.tickInterval) } catch { return }
            let outcome = replica.tick(now: clock.now())
            send(outcome.replies)
            if outcome.peersChanged { publish() }
        }
    }

    func setState(_ newState: DocumentSessionState) {
        state = newState
        if newState == .synced || isClosed {
            let waiters = syncWaiters
            syncWaiters = []
            let result: Result<Void, ParleyError> =
                newState == .synced
                ? .success(()) : .failure(ParleyError(.cancelled, "the document session is closed"))
            for waiter in waiters { waiter.resume(returning: result) }
        }
        publish()
    }
}
