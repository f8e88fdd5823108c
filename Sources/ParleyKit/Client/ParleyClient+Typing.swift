/// Typing notices (throttled out, expiring in) and read cursors (debounced).
extension ParleyClient {
    /// Tells the room the user is typing; call it on every keystroke, it sends at most once
    /// per ``ParleyConfiguration/typingInterval``.
    public func userIsTyping(in roomID: String) throws(ParleyError) {
        try closedFlag.check()
        let now = clock.now()
        if let last = typingSentAt[roomID], now - last < ReconnectPolicy.milliseconds(configuration.typingInterval) { return }
        typingSentAt[roomID] = now
        let api = self.api, diagnostics = configuration.diagnostics
        Task {
            do throws(ParleyError) { _ = try await api.call("POST", ChatAPI.path("rooms", roomID, "typing"), json: .object([:])) } catch {
                diagnostics?(ParleyDiagnostic(.backgroundRequest, error, roomID: roomID))
            }
        }
    }

    func receivedTyping(_ userID: String, room roomID: String) {
        guard userID != currentUserID, rooms[roomID] != nil, !isBlocked(userID) else { return }
        let timeout = configuration.typingTimeout
        let wasTyping = rooms[roomID]?.typers[userID] != nil
        rooms[roomID]?.typers[userID] = clock.now() + ReconnectPolicy.milliseconds(timeout)
        if !wasTyping { emitTypers(roomID) }
        let weak = WeakClient(self), clock = self.clock
        Task {
            do { try await clock.sleep(for: timeout) } catch { return }
            await weak.value?.expireTypers(roomID)
        }
    }

    func clearTyper(_ userID: String, room roomID: String) {
        guard rooms[roomID]?.typers.removeValue(forKey: userID) != nil else { return }
        emitTypers(roomID)
    }

    private func expireTypers(_ roomID: String) {
        guard let typers = rooms[roomID]?.typers else { return }
        let now = clock.now()
        let live = typers.filter { $0.value > now }
        guard live.count != typers.count else { return }
        rooms[roomID]?.typers = live
        emitTypers(roomID)
    }

    private func emitTypers(_ roomID: String) {
        emit(.typing(userIDs: (rooms[roomID]?.typers.keys).map { $0.sorted() } ?? []), room: roomID)
    }

    /// Marks the room read up to `seq`; sent after ``ParleyConfiguration/cursorDebounce``
    /// without further calls, and never backwards.
    public func markRead(_ roomID: String, upTo seq: Int64) throws(ParleyError) {
        try closedFlag.check()
        let floor = max(cursorPending[roomID] ?? 0, cursorSent[roomID] ?? 0)
        guard seq > floor else { return }
        cursorPending[roomID] = seq
        cursorTasks[roomID]?.cancel()
        let delay = configuration.cursorDebounce
        let weak = WeakClient(self), clock = self.clock
        cursorTasks[roomID] = Task {
            do { try await clock.sleep(for: delay) } catch { return }
            await weak.value?.sendCursor(roomID)
        }
    }

    private func sendCursor(_ roomID: String) async {
        guard let seq = cursorPending.removeValue(forKey: roomID) else { return }
        cursorTasks[roomID] = nil
        do {
            _ = try await api.call("PUT", ChatAPI.path("rooms", roomID, "cursor"), json: .object(["seq": .number(String(seq))]))
            cursorSent[roomID] = max(cursorSent[roomID] ?? 0, seq)
        } catch {
            report(.backgroundRequest, error, room: roomID)
            // Put it back so the next mark (or reconnect) sends it.
            if seq > (cursorPending[roomID] ?? 0) { cursorPending[roomID] = seq }
        }
    }
}
