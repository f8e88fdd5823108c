import ParleyStore
import ParleyText

/// Joining, the sync protocol, and the persist-then-publish path of updates.
extension OpenDocument {
    /// Registers a participant; returns the opening messages: the server's sync step 1 and,
    /// when anyone is present, the awareness of every client.
    func join(_ participant: DocumentParticipant) async throws(DocumentsError) -> [[UInt8]] {
        let loaded = try await state()
        var record = participants[participant] ?? Participant(lastSeen: clock.now())
        record.sentStateVector = true
        record.lastSeen = clock.now()
        participants[participant] = record
        var messages = [YSyncMessage.syncStep1(stateVector: loaded.replica.encodeStateVector()).encode()]
        if !awareness.states.isEmpty {
            messages.append(YSyncMessage.awareness(awareness.fullUpdate()).encode())
        }
        return messages
    }

    /// Whether the participant has joined (its access was checked).
    func hasJoined(_ participant: DocumentParticipant) -> Bool {
        participants[participant] != nil
    }

    /// Handles one decoded message from a joined participant; returns the replies to it.
    func handle(_ message: YSyncMessage, from participant: DocumentParticipant) async throws(DocumentsError) -> [[UInt8]] {
        try checkOpen()
        participants[participant]?.lastSeen = clock.now()
        switch message {
        case .syncStep1(let stateVector):
            return try await answerStep1(stateVector, to: participant)
        case .syncStep2(let update), .update(let update):
            try await receive(update, from: participant)
            return []
        case .awareness(let update):
            try receiveAwareness(update, from: participant)
            return []
        case .queryAwareness:
            return [YSyncMessage.awareness(awareness.fullUpdate()).encode()]
        case .permissionDenied:
            return []  // only servers send auth messages; a client's is meaningless
        }
    }

    /// Step 2 with what the participant lacks, and the server's own step 1 unless it already
    /// has it, so the participant answers with what the server lacks.
    private func answerStep1(_ stateVector: [UInt8], to participant: DocumentParticipant) async throws(DocumentsError) -> [[UInt8]] {
        let loaded = try await state()
        let diff: [UInt8]
        do {
            diff = try loaded.replica.encodeStateAsUpdate(since: stateVector)
        } catch {
            throw DocumentsError(.malformedMessage, "state vector: \(error)")
        }
        var replies = [YSyncMessage.syncStep2(update: diff).encode()]
        // What waits for missing dependencies is relayed too, as the updates that carried it.
        replies += loaded.replica.pendingUpdates.map { YSyncMessage.update($0).encode() }
        if participants[participant]?.sentStateVector == false {
            participants[participant]?.sentStateVector = true
            replies.append(YSyncMessage.syncStep1(stateVector: loaded.replica.encodeStateVector()).encode())
        }
        return replies
    }

    /// Validates an update against the replica, applies it, and returns once it is durable
    /// and published. An update that adds nothing is acknowledged without being stored.
    func receive(_ update: [UInt8], from participant: DocumentParticipant) async throws(DocumentsError) {
        guard update.count <= configuration.maxUpdateBytes else {
            throw DocumentsError(.updateTooLarge, "update of \(update.count) bytes exceeds \(configuration.maxUpdateBytes)")
        }
        let storedBytes = try await state().storedBytes
        guard storedBytes + queuedBytes + update.count <= configuration.maxDocumentBytes else {
            throw DocumentsError(.documentTooLarge, "document \(id) would exceed \(configuration.maxDocumentBytes) bytes")
        }
        // Applied in place: no copy of the replica may be alive here, or the apply would copy it.
        // Structs whose dependencies have not arrived wait in the replica, as in Yjs; the
        // update is stored and relayed like any other.
        let changed: Bool
        do {
            changed = try loaded!.replica.applyUpdate(update)
        } catch {
            throw DocumentsError(.invalidUpdate, error.description)
        }
        guard changed else { return }
        try await persist(update, from: participant)
    }

    /// Queues an applied update for the store and waits until it is durable.
    private func persist(_ update: [UInt8], from participant: DocumentParticipant) async throws(DocumentsError) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                queue.append(QueuedUpdate(update: update, origin: participant, continuation: continuation))
                queuedBytes += update.count
                if !isWriting {
                    isWriting = true
                    Task { await self.drain() }
                }
            }
        } catch let error as DocumentsError {
            throw error
        } catch {
            throw DocumentsError(store: error)
        }
    }

    /// The replica as one update when the log, with `count` more updates of `bytes`, is due
    /// for compaction. The replica holds exactly what is stored plus the batch being
    /// written, so this snapshot may replace the log and the batch in one transaction.
    private func snapshotIfCompactionDue(adding count: Int, bytes: Int) -> [UInt8]? {
        guard let current = loaded, !current.replica.hasPendingUpdates,
            current.logCount + count >= configuration.compactAfterUpdates
                || current.logBytes + bytes >= configuration.compactAfterBytes
        else { return nil }
        return current.replica.encodeStateAsUpdate()
    }

    /// Writes queued updates batch by batch; publishes each batch once it committed.
    private func drain() async {
        while !queue.isEmpty, loaded != nil {
            let batch = queue
            queue.removeAll()
            let bytes = queuedBytes
            queuedBytes = 0
            // With other nodes writing the same log, this replica may lack what they
            // appended: the log is compacted from the store instead (`compactStoredLog`).
            let clustered = relay.isJoined
            let snapshot = clustered ? nil : snapshotIfCompactionDue(adding: batch.count, bytes: bytes)
            do {
                let result = try await store.appendUpdates(app: app, id: id, batch.map(\.update), snapshot: snapshot)
                loaded?.logCount = result.logCount
                loaded?.logBytes = result.logBytes
                loaded?.storedBytes = result.snapshotBytes + result.logBytes
                for queued in batch {
                    let message = YSyncMessage.update(queued.update).encode()
                    publisher.publish(DocumentBroadcast(app: app, documentID: id, kind: .update, message: message, origin: queued.origin))
                    // Only the node that accepted an update stores it; the others just apply it.
                    relay.send(.update(app: app, documentID: id, message: message))
                    queued.continuation.resume()
                }
                if clustered, result.logCount >= configuration.compactAfterUpdates || result.logBytes >= configuration.compactAfterBytes {
                    await compactStoredLog()
                }
            } catch {
                // The replica is ahead of the store now: refuse everything and reopen afresh.
                let failure = DocumentsError(.storageUnavailable, "document \(id): \(DocumentsError(store: error).message)")
                isClosed = true
                for queued in batch + queue { queued.continuation.resume(throwing: failure) }
                queue.removeAll()
                queuedBytes = 0
            }
        }
        isWriting = false
    }
}

extension OpenDocument {
    /// Marks that a participant joined implicitly (by sending a message) and has not been
    /// sent the server's state vector, so its step 1 is answered with the server's step 1 too.
    func markStateVectorUnsent(_ participant: DocumentParticipant) {
        participants[participant]?.sentStateVector = false
    }
}
