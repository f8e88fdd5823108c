/// Room feeds: every new message passes the room's sequencer; gaps are filled from history.
extension ParleyClient {
    /// Takes new messages of a room from any source and delivers what is next in seq order.
    func ingest(_ messages: [ChatMessage], room roomID: String) {
        guard var sequencer = rooms[roomID]?.sequencer else { return }
        var deliverable: [ChatMessage] = []
        for message in messages { deliverable += sequencer.receive(message) }
        rooms[roomID]?.sequencer = sequencer
        deliver(deliverable, room: roomID)
        if sequencer.needsFill { startFill(roomID) }
    }

    func applyUpdate(_ message: ChatMessage, deleted: Bool) {
        guard var sequencer = rooms[message.roomID]?.sequencer else { return }
        let known = sequencer.isDelivered(update: message)
        rooms[message.roomID]?.sequencer = sequencer
        guard known, !isBlocked(message.senderID) else { return }
        cache([message])
        emit(deleted ? .messageDeleted(message) : .messageUpdated(message), room: message.roomID)
    }

    private func deliver(_ messages: [ChatMessage], room roomID: String) {
        // Blocked users' messages are passed over as history leaves them out (their seq still counts as delivered).
        let messages = messages.filter { !isBlocked($0.senderID) }
        guard !messages.isEmpty else { return }
        cache(messages)
        for message in messages { emit(.message(message), room: roomID) }
    }

    private func cache(_ messages: [ChatMessage]) {
        guard let user = currentUserID else { return }
        storeWrite(messages.first?.roomID) { store throws(ParleyError) in try store.saveMessages(messages, user: user) }
    }

    /// Starts a history fill of a watched room unless one runs (then it runs again after).
    func startFill(_ roomID: String) {
        guard let room = rooms[roomID], room.sequencer != nil else { return }
        if room.filling {
            rooms[roomID]?.refill = true
            return
        }
        rooms[roomID]?.filling = true
        let weak = WeakClient(self)
        Task { await weak.value?.fill(roomID) }
    }

    /// Reads history after the last delivered seq until the room is caught up. A transient
    /// failure while subscribed is retried after a backoff: the messages missed during a
    /// disconnect must not wait for the room's next event or the next reconnect.
    private func fill(_ roomID: String) async {
        defer { rooms[roomID]?.filling = false }
        var failures = 0
        repeat {
            rooms[roomID]?.refill = false
            do {
                try await fillOnce(roomID)
            } catch {
                report(.backgroundRequest, error, room: roomID)
                // Unsubscribed or refused: the next (re)subscribe or live event starts another fill.
                guard error.isTransient, rooms[roomID]?.subscribed == true else { return }
                failures += 1
                let delay =
                    error.retryAfter.map { Duration.seconds($0) }
                    ?? configuration.reconnect.backoff(attempt: failures, random: random())
                do { try await clock.sleep(for: delay) } catch { return }
                guard let room = rooms[roomID], room.subscribed || room.refill else { return }
                rooms[roomID]?.refill = true
            }
        } while rooms[roomID]?.refill == true
    }

    private func fillOnce(_ roomID: String) async throws(ParleyError) {
        if rooms[roomID]?.sequencer?.delivered == nil {
            let latest = try await history(roomID, limit: 1)
            let baseline = latest.messages.last?.seq ?? 0
            guard var sequencer = rooms[roomID]?.sequencer else { return }
            let deliverable = sequencer.setBaseline(baseline)
            rooms[roomID]?.sequencer = sequencer
            deliver(deliverable, room: roomID)
        }
        while let after = rooms[roomID]?.sequencer?.delivered {
            let page = try await history(roomID, after: after, limit: configuration.historyPageSize)
            guard var sequencer = rooms[roomID]?.sequencer else { return }
            let deliverable = sequencer.receive(page: page.messages)
            rooms[roomID]?.sequencer = sequencer
            deliver(deliverable, room: roomID)
            if !page.hasMore || page.messages.isEmpty { return }
        }
    }
}
