import ParleyStore
import ParleyText
import Synchronization

/// One document held open by the service: the server's replica, the awareness of its
/// participants, and the serial path every change takes (validate and apply to the
/// replica, persist, then publish).
///
/// Updates are applied to the replica first; one that does not apply cleanly is refused
/// before anything is stored or forwarded. Accepted updates queue for the store; whatever
/// queues while a commit is in flight is written in the next one, so the replica never runs
/// more than one batch ahead of the store, and when compaction is due the batch is replaced
/// by a snapshot of the replica in the same transaction.
actor OpenDocument {
    /// A participant's bookkeeping.
    struct Participant {
        /// Awareness clients this participant speaks for.
        var awarenessClients: Set<UInt64> = []
        /// Whether the participant was sent the server's state vector (sync step 1).
        var sentStateVector = false
        /// When the participant last sent anything (ms).
        var lastSeen: Int64
    }

    /// An accepted update waiting for its commit.
    struct QueuedUpdate {
        var update: [UInt8]
        var origin: DocumentParticipant
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// What loading produced: the replica and the storage counters.
    struct Loaded: Sendable {
        var info: DocumentInfo
        var replica: YDocument
        var storedBytes: Int
        var logCount: Int
        var logBytes: Int
    }

    let app: String
    let id: String
    let store: any DocumentStore
    let publisher: any DocumentPublisher
    let configuration: DocumentsConfiguration
    let clock: StoreClock
    /// The other nodes (nothing is sent for one node alone).
    let relay: DocumentRelayLink
    /// Other nodes' notices not applied yet: filled on the bus's thread in arrival order,
    /// emptied on the actor once the replica is loaded.
    nonisolated let clusterInbox = Mutex<[DocumentClusterNotice]>([])
    /// Awareness clients whose states came from other nodes (not owned by a participant here).
    var remoteAwarenessClients: Set<UInt64> = []

    private var loadTask: Task<Loaded, any Error>?
    var loaded: Loaded?
    var awareness: Awareness
    var participants: [DocumentParticipant: Participant] = [:]
    var awarenessOwners: [UInt64: DocumentParticipant] = [:]
    var queue: [QueuedUpdate] = []
    var queuedBytes = 0
    var isWriting = false
    /// Set when the document was evicted or its store failed; every later call is refused.
    var isClosed = false

    init(
        app: String, id: String, store: any DocumentStore, publisher: any DocumentPublisher,
        configuration: DocumentsConfiguration, clock: StoreClock, relay: DocumentRelayLink = DocumentRelayLink()
    ) {
        self.app = app
        self.id = id
        self.store = store
        self.publisher = publisher
        self.configuration = configuration
        self.clock = clock
        self.relay = relay
        self.awareness = Awareness(timeout: configuration.awarenessTimeout)
    }

    /// The metadata and replica, loading them from the store on first use.
    func state() async throws(DocumentsError) -> Loaded {
        try checkOpen()
        if let loaded { return loaded }
        // Other nodes' notices for this document are kept from now on (it is registered as
        // open before this first call); ask them who is present.
        if loadTask == nil { relay.send(.awarenessQuery(app: app, documentID: id)) }
        let task =
            loadTask
            ?? Task { [app, id, store, configuration] in
                try await Self.load(app: app, id: id, store: store, configuration: configuration)
            }
        loadTask = task
        do {
            let value = try await task.value
            try checkOpen()
            if loaded == nil { loaded = value }
            // Dropping the task drops its copy of the replica, so later edits mutate in place.
            loadTask = nil
            // What other nodes published while the store was read: applying an update the
            // store already had is harmless (Yjs updates are idempotent and commutative).
            applyClusterInbox()
            return loaded!
        } catch let error as DocumentsError {
            loadTask = nil
            throw error
        } catch {
            loadTask = nil
            throw DocumentsError(store: error)
        }
    }

    private static func load(
        app: String, id: String, store: any DocumentStore,
        configuration: DocumentsConfiguration
    ) async throws -> Loaded {
        let info = try await store.document(app: app, id: id)
        let content = try await store.content(app: app, id: id)
        if configuration.loadDelayForTesting > 0 {
            try await Task.sleep(for: .milliseconds(configuration.loadDelayForTesting))
        }
        var replica = YDocument()
        do {
            if let snapshot = content.snapshot { try replica.applyUpdate(snapshot) }
            for update in content.updates { try replica.applyUpdate(update) }
        } catch {
            throw DocumentsError(.storageUnavailable, "stored content of document \(id) does not decode: \(error)")
        }
        let logBytes = content.updates.reduce(0) { $0 + $1.count }
        return Loaded(
            info: info, replica: replica, storedBytes: content.storedBytes,
            logCount: content.updates.count, logBytes: logBytes)
    }

    func checkOpen() throws(DocumentsError) {
        if isClosed { throw DocumentsError(.documentClosed, "document \(id) was closed; open it again") }
    }

    /// Refreshes the metadata after a change the service made (access list).
    func updateInfo(_ info: DocumentInfo) {
        loaded?.info = info
    }

    /// The replica's text under the configured root name (for diagnostics and tests).
    func text() async throws(DocumentsError) -> String {
        try await state().replica.text(root: configuration.rootName)
    }

    /// Runs `body` on the replica (loaded first if needed), inside the actor so no copy is made.
    func read<T: Sendable>(_ body: (YDocument) -> T) async throws(DocumentsError) -> T {
        body(try await state().replica)
    }

    /// The replica as one update, and the updates still waiting for dependencies.
    func encodedState() async throws(DocumentsError) -> (state: [UInt8], pending: [[UInt8]]) {
        let replica = try await state().replica
        return (replica.encodeStateAsUpdate(), replica.pendingUpdates)
    }

    /// Closes the document when nobody takes part and nothing is being written; returns
    /// whether it closed. Later calls fail with `documentClosed`, so callers reopen it.
    func closeIfIdle() -> Bool {
        guard !isClosed else { return true }
        guard participants.isEmpty, queue.isEmpty, !isWriting else { return false }
        isClosed = true
        return true
    }
}
