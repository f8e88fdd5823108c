import ParleyWire

/// The Parley chat client: REST calls, the realtime connection with reconnects, exactly-once
/// ordered room events with history gap-fill, a disk outbox, a cache, typing and read cursors.
///
/// Create one per signed-in user, call ``connect()``, watch ``connectionStates()``,
/// ``roomEvents(_:after:)`` and ``userEvents()``.
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

    var state: ConnectionState = .idle
    var currentUserID: String?
    var wantsConnection = false
    var isClosed = false
    var connectionTask: Task<Void, Never>?
    var connection: (any RealtimeConnection)?
    var generation = 0
    var socketID: String?
    var lastFrameAt: Int64 = 0
    var lastServerError: String?
    var rooms: [String: RoomChannelState] = [:]

    var flushTask: Task<Void, Never>?
    var flushAgain = false
    var outboxRetryTask: Task<Void, Never>?
    var outboxRetryAttempt = 0

    var typingSentAt: [String: Int64] = [:]
    var cursorPending: [String: Int64] = [:]
    var cursorSent: [String: Int64] = [:]
    var cursorTasks: [String: Task<Void, Never>] = [:]

    /// Creates a client. Transports and clock default to the real ones; tests pass an
    /// ``InMemoryChatServer`` and a ``ManualClock``. `random` jitters reconnect delays.
    /// `documents` opens the y-websocket connections of ``openDocument(room:name:presence:)``.
    public init(configuration: ParleyConfiguration, tokenProvider: any TokenProvider,
                http: any HTTPTransport = SocketHTTPTransport(), realtime: any RealtimeTransport = WebSocketRealtimeTransport(),
                clock: any ParleyClock = SystemClock(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                documents: any DocumentTransport = WebSocketDocumentTransport())
        throws(ParleyError) {
        self.configuration = configuration
        tokens = tokenProvider
        api = ChatAPI(baseURL: configuration.serverURL, appID: configuration.appID, http: http, tokens: tokenProvider)
        self.realtime = realtime
        documentTransport = documents
        self.clock = clock
        self.random = random
        store = try LocalStore(path: configuration.storePath ?? ":memory:")
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
    /// The first watcher's baseline holds for the room while it is watched.
    public func roomEvents(_ roomID: String, after seq: Int64? = nil) -> AsyncStream<RoomEvent> {
        var room = rooms[roomID] ?? RoomChannelState()
        let hub = room.events ?? Broadcaster<RoomEvent>()
        room.events = hub
        if room.sequencer == nil { room.sequencer = RoomSequencer(after: seq) }
        rooms[roomID] = room
        let stream = hub.stream()
        subscribeIfOnline(roomID)
        if room.subscribed { startFill(roomID) }
        if let pending = try? store.outbox().filter({ $0.roomID == roomID }), !pending.isEmpty { hub.send(.outbox(pending)) }
        return stream
    }

    /// Subscribes to rooms' channels without watching their messages: their presence and
    /// room events then reach ``userEvents()`` (for room lists).
    public func observe(rooms ids: [String]) {
        for id in ids where rooms[id] == nil {
            rooms[id] = RoomChannelState()
            subscribeIfOnline(id)
        }
    }

    /// The signed-in user's id (from the token's `sub`, else `GET /v1/me`).
    public func userID() async throws(ParleyError) -> String {
        if let currentUserID { return currentUserID }
        let token = try await tokens.token()
        if let subject = JWTClaims(token: token)?.subject {
            currentUserID = subject
            return subject
        }
        let me = try await me()
        currentUserID = me.id
        return me.id
    }

    func publish(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        stateHub.send(newState)
    }

    func emit(_ event: RoomEvent, room: String) { rooms[room]?.events?.send(event) }

    /// A new client id: 128 random bits, hex.
    static func newClientID() -> String { "c-" + Digest.randomBytes(16).hexString }
}
