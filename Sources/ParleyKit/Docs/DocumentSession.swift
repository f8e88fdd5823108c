/// A live collaborative document: a local replica that takes edits at once (online or
/// not), synced with the server over its y-websocket endpoint, the protocol Yjs providers
/// speak; with presence and cursors of everyone editing. It holds any Yjs content: the
/// text API below edits the root text `text`; named texts, maps and arrays are edited
/// through `DocumentSession+Content.swift` (``setValue(_:forKey:inMap:)`` and friends).
///
/// Get one from ``ParleyClient/openDocument(room:name:presence:)`` or
/// ``ParleyClient/openDocument(id:presence:)``, or create one and call ``start()``. Edits are
/// addressed in Unicode scalars. Watch ``snapshots()`` for the text, the peers and the
/// connection. A lost connection is retried with backoff; edits made meanwhile are merged
/// when it is back. The session closes by itself, with the reason in its state, when retrying
/// cannot help: access refused, the document gone, or an edit the server refuses (too large
/// or invalid). ``close()`` ends it.
public actor DocumentSession {
    /// The endpoint it connects to.
    public nonisolated let url: String
    /// This replica's y-protocols client id.
    public nonisolated let clientID: UInt64
    let tokens: any TokenProvider
    let appID: String?
    let transport: any DocumentTransport
    let clock: any ParleyClock
    let reconnect: ReconnectPolicy
    let random: @Sendable () -> Double
    /// Told about server messages ignored as malformed and content that could not be read.
    let diagnostics: (@Sendable (ParleyDiagnostic) -> Void)?
    let hub = Broadcaster<DocumentSnapshot>(replayLatest: true, initial: DocumentSnapshot())
    let changeHub = Broadcaster<DocumentChange>()

    var replica: DocumentReplica
    var state: DocumentSessionState = .idle
    var connection: (any DocumentConnection)?
    var runTask: Task<Void, Never>?
    var tickTask: Task<Void, Never>?
    var syncWaiters: [CheckedContinuation<Result<Void, ParleyError>, Never>] = []

    /// How often presence is renewed and silent peers are dropped.
    static let tickInterval: Duration = .seconds(5)

    /// Creates a session for the y-websocket endpoint `url`; call ``start()`` next.
    /// - Parameters:
    ///   - presence: the name (and colour) shown to others; its selection is ignored.
    ///   - clientID: the replica's client id; random by default (it must be unique per writer).
    ///   - diagnostics: told about server messages ignored as malformed and content that could
    ///     not be read (``ParleyConfiguration/diagnostics`` for sessions a client opens).
    public init(
        url: String, tokenProvider: any TokenProvider, appID: String? = nil, presence: DocumentPresence,
        transport: any DocumentTransport = PlatformTransports.documents(), clock: any ParleyClock = SystemClock(),
        reconnect: ReconnectPolicy = ReconnectPolicy(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        clientID: UInt64 = UInt64.random(in: 1..<(1 << 32)),
        diagnostics: (@Sendable (ParleyDiagnostic) -> Void)? = nil
    ) {
        self.url = url
        self.clientID = clientID
        tokens = tokenProvider
        self.appID = appID
        self.transport = transport
        self.clock = clock
        self.reconnect = reconnect
        self.random = random
        self.diagnostics = diagnostics
        var presence = presence
        presence.selection = nil
        replica = DocumentReplica(clientID: clientID, presence: presence)
    }

    // MARK: Reading

    /// The snapshot now and after every change (the latest first).
    public nonisolated func snapshots() -> AsyncStream<DocumentSnapshot> { hub.stream() }

    /// The snapshot now.
    public var snapshot: DocumentSnapshot {
        DocumentSnapshot(
            text: replica.document.text, count: replica.document.count, version: replica.version,
            peers: replica.peers, selection: replica.selection, state: state,
            rejectedMessages: replica.rejectedMessages)
    }

    /// The text now.
    public var text: String { replica.document.text }

    /// The number of Unicode scalars in the text.
    public var count: Int { replica.document.count }

    /// The connection state now.
    public var connectionState: DocumentSessionState { state }

    // MARK: Editing

    /// Inserts `text` so that it starts at scalar `position`.
    /// - Throws: ``ParleyError/Code/invalidArgument`` unless `0 <= position <= count`.
    public func insert(_ text: String, at position: Int) throws(ParleyError) {
        try checkOpen()
        send(try replica.insert(text, at: position))
        publish()
    }

    /// Deletes `count` scalars starting at scalar `position`.
    /// - Throws: ``ParleyError/Code/invalidArgument`` unless the range lies inside the text.
    public func delete(at position: Int, count: Int) throws(ParleyError) {
        try checkOpen()
        send(try replica.delete(at: position, count: count))
        publish()
    }

    /// Types `text` at this client's caret, replacing the selection, and moves the caret after
    /// it (without a caret: at the end). The caret follows the text as others edit.
    public func type(_ text: String) throws(ParleyError) {
        try checkOpen()
        send(try replica.replaceSelection(with: text, now: clock.now()))
        publish()
    }

    /// Deletes the selection, or the scalar before the caret (`forward`: after it).
    public func deleteAtCaret(forward: Bool = false) throws(ParleyError) {
        try checkOpen()
        send(try replica.deleteAtCaret(forward: forward, now: clock.now()))
        publish()
    }

    /// Moves this client's caret or selection (nil: none), which the others see.
    public func setSelection(_ selection: DocumentSelection?) {
        guard !isClosed else { return }
        send(replica.setSelection(selection, now: clock.now()))
        publish()
    }

    /// Changes the name or colour the others see.
    public func setPresence(name: String, color: String? = nil) {
        guard !isClosed else { return }
        send(replica.setPresence(name: name, color: color, now: clock.now()))
        publish()
    }

    // MARK: Helpers

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    private func checkOpen() throws(ParleyError) {
        if case .closed(let reason) = state { throw ParleyError(.cancelled, "the document session is closed: \(reason)") }
    }

    func send(_ messages: [[UInt8]]) {
        guard let connection else { return }
        for message in messages { connection.send(message) }
    }

    /// Sends the snapshot and, when the last local edit changed roots, a local change event.
    func publish() {
        hub.send(snapshot)
        let roots = replica.takeLocalRoots()
        if !roots.isEmpty { changeHub.send(DocumentChange(roots: roots, isLocal: true, version: replica.version)) }
    }
}

extension DocumentSession {
    /// Moves this client's caret or selection by a rule applied to the text and selection as
    /// they are now, in one step (no remote edit can come in between).
    public func moveSelection(_ move: @Sendable (_ text: String, _ selection: DocumentSelection?) -> DocumentSelection?) {
        guard !isClosed else { return }
        setSelection(move(replica.document.text, replica.selection))
    }
}
