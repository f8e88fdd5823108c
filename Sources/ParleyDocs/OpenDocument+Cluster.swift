import ParleyStore
import ParleyText
import ParleyWire

/// Other nodes' changes to this document: their updates and their participants' awareness.
extension OpenDocument {
    /// Keeps another node's notice and applies it on the actor (from the bus's thread). The
    /// inbox keeps the bus's order whatever order the tasks run in.
    nonisolated func enqueueFromCluster(_ notice: DocumentClusterNotice) {
        clusterInbox.withLock { $0.append(notice) }
        Task { await self.applyClusterInbox() }
    }

    /// Applies what the inbox holds, once the replica is loaded (until then it waits there).
    func applyClusterInbox() {
        guard loaded != nil, !isClosed else { return }
        let notices = clusterInbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
        for notice in notices {
            switch notice {
            case .update(_, _, let message): applyRemoteUpdate(message)
            case .awareness(_, _, let message): applyRemoteAwareness(message)
            case .awarenessQuery: answerAwarenessQuery()
            }
        }
    }

    /// Applies an update another node stored, then hands it to this node's peers. Applying
    /// before delivering means a peer that is not registered for broadcasts yet finds it in
    /// the replica when it syncs. Nothing is stored: the accepting node did that.
    private func applyRemoteUpdate(_ message: [UInt8]) {
        guard let update = (try? YSyncMessage.decode(message))?.documentUpdate else { return }
        // In place, as in `receive`: no copy of the replica is alive here.
        guard (try? loaded!.replica.applyUpdate(update)) == true else { return }
        publisher.deliverFromOtherNode(DocumentBroadcast(app: app, documentID: id, kind: .update, message: message, origin: nil))
    }

    /// Applies another node's awareness change (its clients; entries for clients a participant
    /// here speaks for are ignored) and hands what changed to this node's peers.
    private func applyRemoteAwareness(_ message: [UInt8]) {
        guard case .awareness(let update)? = try? YSyncMessage.decode(message) else { return }
        let entries = update.entries.filter { awarenessOwners[$0.clientID] == nil }
        let change = awareness.apply(AwarenessUpdate(entries: entries), now: clock.now())
        for client in change.changedClients {
            if awareness.states[client] == nil {
                remoteAwarenessClients.remove(client)
            } else {
                remoteAwarenessClients.insert(client)
            }
        }
        deliverRemoteAwareness(change)
    }

    /// Sends the states of this node's own participants' clients to the other nodes (a node
    /// that just opened the document asked).
    private func answerAwarenessQuery() {
        let own = awarenessOwners.keys.filter { awareness.states[$0] != nil }.sorted()
        guard !own.isEmpty else { return }
        let message = YSyncMessage.awareness(awareness.update(for: own)).encode()
        relay.send(.awareness(app: app, documentID: id, message: message))
    }

    /// Hands an awareness change about other nodes' clients to this node's peers only.
    func deliverRemoteAwareness(_ change: AwarenessChange) {
        guard !change.isEmpty else { return }
        let message = YSyncMessage.awareness(awareness.update(for: change.changedClients)).encode()
        publisher.deliverFromOtherNode(DocumentBroadcast(app: app, documentID: id, kind: .awareness, message: message, origin: nil))
    }

    /// Compaction when other nodes write the same log: the snapshot is the merge of what the
    /// store holds, read afresh, and replaces the log only up to what was read, so an update
    /// another node appended meanwhile (and this replica may not have yet) is kept. A failure
    /// leaves the log as it was (a concurrent compaction won, or the store is busy).
    func compactStoredLog() async {
        guard let content = try? await store.content(app: app, id: id) else { return }
        var merged = YDocument()
        do {
            if let snapshot = content.snapshot { try merged.applyUpdate(snapshot) }
            for update in content.updates { try merged.applyUpdate(update) }
        } catch {
            return
        }
        guard !merged.hasPendingUpdates,
            let result = try? await store.compact(
                app: app, id: id, snapshot: merged.encodeStateAsUpdate(), throughSeq: content.lastSeq)
        else { return }
        loaded?.logCount = result.logCount
        loaded?.logBytes = result.logBytes
        loaded?.storedBytes = result.snapshotBytes + result.logBytes
    }
}
