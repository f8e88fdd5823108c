import ParleyText
import ParleyWire

/// Awareness relay: validation, ownership of awareness clients, disconnects and timeouts.
extension OpenDocument {
    /// Applies a participant's awareness update and relays what changed to the others.
    ///
    /// Each awareness client belongs to the first participant that speaks for it; entries
    /// for clients another participant owns are dropped, so nobody can remove or fake
    /// someone else's cursor. States must be JSON (others' clients parse them).
    func receiveAwareness(_ update: AwarenessUpdate, from participant: DocumentParticipant) throws(DocumentsError) {
        guard var record = participants[participant] else { return }
        var accepted: [AwarenessUpdate.Entry] = []
        for var entry in update.entries {
            if let owner = awarenessOwners[entry.clientID], owner != participant { continue }
            if let state = entry.state {
                guard state.utf8.count <= configuration.maxAwarenessStateBytes else {
                    throw DocumentsError(.invalidAwareness, "an awareness state exceeds \(configuration.maxAwarenessStateBytes) bytes")
                }
                let parsed: JSONValue
                do {
                    parsed = try JSONParser.parse(Array(state.utf8))
                } catch {
                    throw DocumentsError(.invalidAwareness, "an awareness state is not JSON: \(error)")
                }
                if case .null = parsed { entry.state = nil }
                if let stamped = Self.stampingUser(parsed, participant.userID) { entry.state = stamped }
            }
            if !record.awarenessClients.contains(entry.clientID) {
                guard record.awarenessClients.count < configuration.maxAwarenessClientsPerParticipant else {
                    throw DocumentsError(
                        .invalidAwareness,
                        "a participant may speak for at most \(configuration.maxAwarenessClientsPerParticipant) awareness clients")
                }
                record.awarenessClients.insert(entry.clientID)
                awarenessOwners[entry.clientID] = participant
                // A peer that moved here from another node speaks for its client again.
                remoteAwarenessClients.remove(entry.clientID)
            }
            accepted.append(entry)
        }
        participants[participant] = record
        let change = awareness.apply(AwarenessUpdate(entries: accepted), now: clock.now())
        publishAwareness(change, origin: participant)
    }

    /// A state's `user` object names the user its cursor belongs to (`{"user":{"id","name"}}`,
    /// as Yjs editor bindings write it), so the server writes the participant's verified id
    /// there, whatever the client put: nobody can show their cursor as someone else's. Nil
    /// (keep the state as sent) when there is no `user` object or it already names them.
    static func stampingUser(_ state: JSONValue, _ userID: String) -> String? {
        guard var object = state.objectValue, var user = object["user"]?.objectValue,
            user["id"] != .string(userID)
        else { return nil }
        user["id"] = .string(userID)
        object["user"] = .object(user)
        return JSONWriter.string(.object(object))
    }

    /// Removes a participant; its awareness clients are announced as gone.
    func leave(_ participant: DocumentParticipant) {
        guard let record = participants.removeValue(forKey: participant) else { return }
        let clients = record.awarenessClients.sorted()
        for client in clients { awarenessOwners[client] = nil }
        let change = awareness.remove(clients, now: clock.now())
        publishAwareness(change, origin: nil)
    }

    /// Drops timed-out awareness states and participants silent for too long.
    func sweep() {
        let now = clock.now()
        // Other nodes' clients that timed out here are this node's business only: their own
        // node announces their end.
        let expired = awareness.expire(now: now)
        let remote = expired.removed.filter { remoteAwarenessClients.contains($0) }
        remoteAwarenessClients.subtract(remote)
        deliverRemoteAwareness(AwarenessChange(removed: remote))
        publishAwareness(
            AwarenessChange(added: expired.added, updated: expired.updated, removed: expired.removed.filter { !remote.contains($0) }),
            origin: nil)
        let idle = participants.filter { now - $0.value.lastSeen >= configuration.participantIdleTimeout }
        for participant in idle.keys { leave(participant) }
    }

    private func publishAwareness(_ change: AwarenessChange, origin: DocumentParticipant?) {
        guard !change.isEmpty else { return }
        let message = YSyncMessage.awareness(awareness.update(for: change.changedClients)).encode()
        publisher.publish(DocumentBroadcast(app: app, documentID: id, kind: .awareness, message: message, origin: origin))
        relay.send(.awareness(app: app, documentID: id, message: message))
    }
}
