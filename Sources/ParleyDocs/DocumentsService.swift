import ParleyChannels
import ParleyStore
import ParleyText
import Synchronization

/// The documents service of one app: creates and finds documents, checks access, and syncs
/// them with participants over the y-protocols messages, whatever the transport.
///
/// Each open document keeps a server replica of any Yjs content in memory; every update a
/// participant sends is validated by applying it to that replica first (a malformed update
/// is refused and changes nothing; one whose dependencies have not arrived waits in the
/// replica, as in Yjs), then persisted, and only
/// when durable acknowledged and published to the other participants through the
/// ``DocumentPublisher``. Awareness is relayed, never stored.
public final class DocumentsService: Sendable {
    /// The app whose documents this service manages.
    public let app: String
    /// The limits and policies in force.
    public let configuration: DocumentsConfiguration
    let store: any DocumentStore
    let membership: any RoomMembership
    let publisher: any DocumentPublisher
    let clock: StoreClock
    /// The other nodes, once the service joined a cluster.
    let relay = DocumentRelayLink()
    private let open = Mutex<[String: OpenDocument]>([:])
    private let creations = RateLimiter()

    /// Creates the service of `app`.
    /// - Parameters:
    ///   - store: where documents live.
    ///   - membership: answers room membership for room-owned documents.
    ///   - publisher: delivers broadcasts to participants.
    ///   - clock: milliseconds for awareness timeouts and idle participants.
    public init(
        app: String, store: any DocumentStore, membership: any RoomMembership, publisher: any DocumentPublisher,
        configuration: DocumentsConfiguration = DocumentsConfiguration(), clock: StoreClock = .system
    ) {
        self.app = app
        self.store = store
        self.membership = membership
        self.publisher = publisher
        self.configuration = configuration
        self.clock = clock
    }

    // MARK: Documents

    /// Creates a document; for a room document the creator must be a member of the room.
    public func createDocument(name: String, access: DocumentAccess, by user: String) async throws(DocumentsError) -> DocumentInfo {
        if let wait = creations.admit(user, limit: configuration.creationRate, now: clock.now()) {
            throw DocumentsError(.rateLimited, "too many new documents; retry in \(wait) s")
        }
        let new: NewDocument
        switch access {
        case .room(let room):
            guard try await isMember(room: room, user: user) else {
                throw DocumentsError(.forbidden, "user \(user) is not a member of room \(room)")
            }
            new = NewDocument(name: name, ownerRoomID: room, createdBy: user)
        case .users(let users):
            new = NewDocument(name: name, accessList: users, createdBy: user)
        }
        return try await storeCall { try await self.store.createDocument(app: self.app, new) }
    }

    /// The document called `name` in the room (or among access-list documents with `room` nil),
    /// created when it does not exist yet: what `/doc NAME` opens.
    public func openOrCreateDocument(name: String, room: String?, by user: String) async throws(DocumentsError) -> DocumentInfo {
        if let found = try await storeCall({ try await self.store.document(app: self.app, named: name, ownerRoom: room) }) {
            try await requireAccess(found, user: user)
            return found
        }
        do {
            return try await createDocument(name: name, access: room.map(DocumentAccess.room) ?? .users([]), by: user)
        } catch  where error.code == .alreadyExists {
            return try await openOrCreateDocument(name: name, room: room, by: user)  // created concurrently
        }
    }

    /// The document with `id`, if `user` may open it.
    public func document(id: String, for user: String) async throws(DocumentsError) -> DocumentInfo {
        let info = try await storeCall { try await self.store.document(app: self.app, id: id) }
        try await requireAccess(info, user: user)
        return info
    }

    /// Whether `user` may open document `id` (for authorising `private-doc-{id}` subscriptions).
    public func canAccess(user: String, documentID id: String) async throws(DocumentsError) -> Bool {
        do {
            _ = try await document(id: id, for: user)
            return true
        } catch  where error.code == .forbidden || error.code == .notFound {
            return false
        }
    }

    /// Replaces the access list of a document without owner room; only users on it may change it.
    public func setAccessList(documentID id: String, users: [String], by user: String) async throws(DocumentsError) -> DocumentInfo {
        let info = try await document(id: id, for: user)
        guard info.ownerRoomID == nil else {
            throw DocumentsError(.invalidArgument, "document \(id) belongs to a room; its members have access")
        }
        let updated = try await storeCall { try await self.store.setAccessList(app: self.app, id: id, users: users) }
        await existing(id)?.updateInfo(updated)
        return updated
    }

    /// Deletes a document; whoever may open it may delete it.
    public func deleteDocument(id: String, by user: String) async throws(DocumentsError) {
        _ = try await document(id: id, for: user)
        _ = try await storeCall { try await self.store.deleteDocument(app: self.app, id: id) }
        if let document = existing(id) {
            _ = await document.closeIfIdle()
            open.withLock { if $0[id] === document { $0[id] = nil } }
        }
    }

    // MARK: Sync

    /// Checks access and registers a participant; returns the opening messages to send it
    /// (the server's sync step 1, then the awareness of everyone present).
    public func join(_ participant: DocumentParticipant, documentID id: String) async throws(DocumentsError) -> [[UInt8]] {
        try await joinDocument(participant, documentID: id).messages
    }

    /// `join`, also answering the document's metadata (its owner room, for revocation).
    public func joinDocument(
        _ participant: DocumentParticipant, documentID id: String
    ) async throws(DocumentsError)
        -> (info: DocumentInfo, messages: [[UInt8]])
    {
        let info = try await document(id: id, for: participant.userID)
        let messages = try await withOpenDocument(id) { document throws(DocumentsError) in try await document.join(participant) }
        return (info, messages)
    }

    /// Handles one y-protocols message from a participant; returns the replies for it alone.
    ///
    /// Step 1 gets step 2 (the diff) and, unless the participant already had it, the
    /// server's step 1. Step 2 and updates are validated, applied, made durable and only
    /// then published; the call returns after that. A participant that did not join is
    /// joined first (its access checked). Throws, and changes nothing, for malformed
    /// messages and invalid or too large updates.
    public func handleSync(
        _ participant: DocumentParticipant, documentID id: String, message: [UInt8]
    ) async throws(DocumentsError) -> [[UInt8]] {
        guard message.count <= configuration.maxMessageBytes else {
            throw DocumentsError(.updateTooLarge, "message of \(message.count) bytes exceeds \(configuration.maxMessageBytes)")
        }
        let decoded: YSyncMessage
        do {
            decoded = try YSyncMessage.decode(message)
        } catch {
            throw DocumentsError(.malformedMessage, error.description)
        }
        return try await withOpenDocument(id) { document throws(DocumentsError) in
            if await !document.hasJoined(participant) {
                _ = try await self.document(id: id, for: participant.userID)
                _ = try await document.join(participant)
                await document.markStateVectorUnsent(participant)
            }
            return try await document.handle(decoded, from: participant)
        }
    }

    /// Ends a participant's part in a document (disconnect, unsubscribe): its awareness
    /// clients are announced as gone to the others.
    public func leave(_ participant: DocumentParticipant, documentID id: String) async {
        await existing(id)?.leave(participant)
    }

    /// Expires awareness states and idle participants, and closes documents nobody uses;
    /// the server calls it periodically (every few seconds).
    public func sweep() async {
        let documents = open.withLock { Array($0) }
        for (id, document) in documents {
            await document.sweep()
            if await document.closeIfIdle() {
                open.withLock { if $0[id] === document { $0[id] = nil } }
            }
        }
    }

    /// The server replica's text of a document (diagnostics, tests, exports); no access check.
    public func text(documentID id: String) async throws(DocumentsError) -> String {
        try await withOpenDocument(id) { document throws(DocumentsError) in try await document.text() }
    }

    /// The server replica's whole state as one Yjs update (`encodeStateAsUpdate`), and the
    /// updates still waiting for dependencies; no access check.
    public func encodedState(documentID id: String) async throws(DocumentsError) -> (state: [UInt8], pending: [[UInt8]]) {
        try await withOpenDocument(id) { document throws(DocumentsError) in try await document.encodedState() }
    }

    /// The number of documents held open.
    public var openDocumentCount: Int {
        open.withLock { $0.count }
    }

    // MARK: Helpers

    func existing(_ id: String) -> OpenDocument? {
        open.withLock { $0[id] }
    }

    /// Runs `body` on the open document `id`, opening it if needed; when the document closed
    /// under the call (evicted, or its store failed), retries once on a fresh one.
    func withOpenDocument<T: Sendable>(
        _ id: String, _ body: (OpenDocument) async throws(DocumentsError) -> T
    ) async throws(DocumentsError) -> T {
        var attempt = 0
        while true {
            let document = open.withLock { documents in
                if let found = documents[id] { return found }
                let created = OpenDocument(
                    app: app, id: id, store: store, publisher: publisher,
                    configuration: configuration, clock: clock, relay: relay)
                documents[id] = created
                return created
            }
            do {
                return try await body(document)
            } catch  where error.code == .documentClosed || error.code == .notFound || error.code == .storageUnavailable {
                open.withLock { if $0[id] === document { $0[id] = nil } }
                attempt += 1
                if error.code != .documentClosed || attempt > 1 { throw error }
            }
        }
    }

    private func requireAccess(_ info: DocumentInfo, user: String) async throws(DocumentsError) {
        let allowed: Bool
        if let room = info.ownerRoomID {
            allowed = try await isMember(room: room, user: user)
        } else {
            allowed = info.accessList.contains(user)
        }
        guard allowed else { throw DocumentsError(.forbidden, "user \(user) may not open document \(info.id)") }
    }

    private func isMember(room: String, user: String) async throws(DocumentsError) -> Bool {
        do {
            return try await membership.isMember(app: app, room: room, user: user)
        } catch {
            throw DocumentsError(store: error)
        }
    }

    private func storeCall<T: Sendable>(_ body: @Sendable () async throws -> T) async throws(DocumentsError) -> T {
        do {
            return try await body()
        } catch {
            throw DocumentsError(store: error)
        }
    }
}
