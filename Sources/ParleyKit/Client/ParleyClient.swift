import ParleyWireCore

/// The Parley chat client: REST calls, the realtime connection with reconnects, exactly-once
/// ordered room events with history gap-fill, a disk outbox, a cache, typing and read cursors.
///
/// Create one per signed-in user, call ``connect()``, watch ``connectionStates()``,
/// ``roomEvents(_:after:)`` and ``userEvents()``. After ``close()`` (or
/// ``signOut(deletingLocalData:)``) every call throws ``ParleyError/Code/closed``. A client the
/// app lets go of without closing it is freed all the same: its tasks hold it only weakly, and
/// its deinit closes the connection and ends its streams.
public actor ParleyClient {
    /// The configuration it was created with.
    public nonisolated let configuration: ParleyConfiguration
    let api: ChatAPI
    let tokens: any TokenProvider
    let realtime: any RealtimeTransport
    let documentTransport: any DocumentTransport
    let clock: any ParleyClock
    let random: @Sendable () -> Double
    let store: LocalStore
    let stateHub = Broadcaster<ConnectionState>(replayLatest: true, initial: .idle)
    let userHub = Broadcaster<UserEvent>()
    let blocksHub = Broadcaster<Set<String>>(replayLatest: true)
    let closedFlag: ClosedFlag

    var state: ConnectionState = .idle
    var currentUserID: String?
    var wantsConnection = false
    var isClosed: Bool { closedFlag.isClosed }
    var connectionTask: Task<Void, Never>?
    var connection: (any RealtimeConnection)?
    var generation = 0
    var socketID: String?
    /// The connection loop sleeps out a backoff before its next attempt.
    var waitingToReconnect = false
    /// The server confirmed `pusher:signin` on the current socket.
    var signedIn = false
    var lastFrameAt: Int64 = 0
    var lastServerError: String?
    var rooms: [String: RoomChannelState] = [:]
    /// The users the signed-in user blocks; nil until ``blockedUsers(refresh:)`` first reads them.
    var blockedIDs: Set<String>?

    var flushTask: Task<Void, Never>?
    var flushAgain = false
    var outboxRetryTask: Task<Void, Never>?
    var outboxRetryAttempt = 0
    /// Callers of ``send(_:to:)`` waiting for their message's first attempt, by client id.
    var sendWaiters: [String: CheckedContinuation<Result<SendResult, ParleyError>, Never>] = [:]

    var typingSentAt: [String: Int64] = [:]
    var cursorPending: [String: Int64] = [:]
    var cursorSent: [String: Int64] = [:]
    var cursorTasks: [String: Task<Void, Never>] = [:]

    /// Creates a client. Transports and clock default to the real ones; tests pass an
    /// `InMemoryChatServer` and a `ManualClock` (module ParleyKitTesting). `random` jitters reconnect delays.
    /// `documents` opens the y-websocket connections of ``openDocument(room:name:presence:)``.
    public init(
        configuration: ParleyConfiguration, tokenProvider: any TokenProvider,
        http: any HTTPTransport = PlatformTransports.http(), realtime: any RealtimeTransport = PlatformTransports.realtime(),
        clock: any ParleyClock = SystemClock(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        documents: any DocumentTransport = PlatformTransports.documents()
    )
        throws(ParleyError)
    {
        self.configuration = configuration
        tokens = tokenProvider
        let closed = ClosedFlag()
        closedFlag = closed
        api = ChatAPI(baseURL: configuration.serverURL, appID: configuration.appID, http: http, tokens: tokenProvider, closed: closed)
        self.realtime = realtime
        documentTransport = documents
        self.clock = clock
        self.random = random
        store = try LocalStore(path: configuration.storePath ?? ":memory:")
    }

    /// A dropped client: stop its tasks, close its connection (the server sees the close) and
    /// end the app's streams.
    deinit {
        closedFlag.close()
        connectionTask?.cancel()
        flushTask?.cancel()
        outboxRetryTask?.cancel()
        for task in cursorTasks.values { task.cancel() }
        connection?.close(code: 1000)
        for room in rooms.values { room.events?.finish() }
        userHub.finish()
        blocksHub.finish()
        stateHub.finish()
    }

    // MARK: Streams

    /// The connection state now and at every change.
    public nonisolated func connectionStates() -> AsyncStream<ConnectionState> { stateHub.stream() }

    /// The connection state now.
    public var connectionState: ConnectionState { state }

    /// Events across the user's rooms (room added/removed, activity, read positions, presence).
    public nonisolated func userEvents() -> AsyncStream<UserEvent> { userHub.stream() }

    /// A room's events. New messages come exactly once, in seq order, starting after `seq`
    /// (missed ones are read from history); with nil, after the room's latest message.
    /// The first watcher's baseline holds for the room while it is watched. A subscription the
    /// server refuses (not a member, no such room) arrives as ``RoomEvent/subscriptionFailed(_:)``.
    public func roomEvents(_ roomID: String, after seq: Int64? = nil) throws(ParleyError) -> AsyncStream<RoomEvent> {
        try closedFlag.check()
        var room = rooms[roomID] ?? RoomChannelState()
        let hub = room.events ?? Broadcaster<RoomEvent>()
        room.events = hub
        if room.sequencer == nil { room.sequencer = RoomSequencer(after: seq) }
        rooms[roomID] = room
        let stream = hub.stream()
        subscribeIfOnline(roomID)
        if room.subscribed { startFill(roomID) }
        if let pending = storeRead(roomID, { store, user throws(ParleyError) in try store.outbox(user: user) }) {
            let mine = pending.filter { $0.roomID == roomID }
            if !mine.isEmpty { hub.send(.outbox(mine)) }
        }
        return stream
    }

    /// Subscribes to rooms' channels without watching their messages: their presence and
    /// room events then reach ``userEvents()`` (for room lists).
    public func observe(rooms ids: [String]) throws(ParleyError) {
        try closedFlag.check()
        for id in ids where rooms[id] == nil {
            rooms[id] = RoomChannelState()
            subscribeIfOnline(id)
        }
    }

    /// The signed-in user's id (from the token's `sub`, else `GET /v1/me`).
    public func userID() async throws(ParleyError) -> String {
        try closedFlag.check()
        if let currentUserID { return currentUserID }
        let token = try await tokens.token()
        let id: String
        if let subject = JWTClaims(token: token)?.subject { id = subject } else { id = try await me().id }
        if currentUserID == nil { learnedUser(id) }
        return currentUserID ?? id
    }

    /// The first time the user is known: outbox entries from before stores had owners are theirs.
    private func learnedUser(_ id: String) {
        currentUserID = id
        storeWrite { store throws(ParleyError) in try store.adoptUnownedOutbox(user: id) }
    }

    /// Signs the user out: closes the client (every call afterwards throws
    /// ``ParleyError/Code/closed``) and, with `deletingLocalData`, deletes the user's outbox
    /// (unsent messages are lost) and cached rooms and messages from the store. Other users'
    /// data in the same store file stays.
    public func signOut(deletingLocalData: Bool) async throws(ParleyError) {
        var user = currentUserID
        if user == nil, deletingLocalData { user = try await userID() }
        close()
        guard deletingLocalData, let user else { return }
        try store.deleteData(user: user)
    }

    func publish(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        stateHub.send(newState)
    }

    func emit(_ event: RoomEvent, room: String) { rooms[room]?.events?.send(event) }

    /// Hands a failure the client handled itself to the app's diagnostics hook.
    func report(_ kind: ParleyDiagnostic.Kind, _ error: ParleyError, room: String? = nil) {
        configuration.diagnostics?(ParleyDiagnostic(kind, error, roomID: room))
    }

    /// Runs a store write; a failure is reported (the cache is best effort, the caller goes on).
    func storeWrite(_ room: String? = nil, _ body: (LocalStore) throws(ParleyError) -> Void) {
        do { try body(store) } catch { report(.storage, error, room: room) }
    }

    /// Runs a store read for the signed-in user; nil (and a report) when it fails or no user is known yet.
    func storeRead<T>(_ room: String? = nil, _ body: (LocalStore, String) throws(ParleyError) -> T) -> T? {
        guard let user = currentUserID else { return nil }
        do { return try body(store, user) } catch {
            report(.storage, error, room: room)
            return nil
        }
    }

    /// A new client id: 128 random bits from the system's generator, hex.
    static func newClientID() -> String {
        var generator = SystemRandomNumberGenerator()
        let halves = [generator.next() as UInt64, generator.next() as UInt64]
        return "c-" + halves.map { String($0, radix: 16).leftPadded(to: 16) }.joined()
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
