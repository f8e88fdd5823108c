import ParleyChannels
import ParleyImaging
import ParleyStore
import ParleyWire
import Synchronization

/// The chat REST service of one server: users, rooms, messages, attachments, cursors, typing,
/// presence and channel authorisation, for every configured app.
///
/// Transport-free: `handle(_:)` maps a complete request to a complete response. Every write
/// is durable in the store before its events go to the publisher (persist, then publish).
public final class ChatService: Sendable {
    /// The configuration.
    public let configuration: ChatConfiguration
    let store: any ChatStore
    let publisher: any ChatPublisher
    let clock: StoreClock
    /// The apps, live: a reload of the apps file (SIGHUP) replaces them.
    let apps: AppRegistry
    let verifier: TokenVerifier
    let files: AttachmentFiles
    let thumbnails: ThumbnailWorkers
    /// The thumbnail settings in force: a reload of the config file (SIGHUP) replaces them.
    let thumbnailSettings: Mutex<ThumbnailSettings>
    let limiter = RateLimiter()
    let presence = PresenceTracker()
    let roomMembers: RoomMembersCache
    let moderationCache = ModerationCache(capacity: 10_000)
    let router: HTTPRouter<ChatRoute>
    let grants: ChannelGrants
    let tokenCutoffs = TokenCutoffs(capacity: 100_000)
    let accessObservers = Mutex<[any AccessEndObserver]>([])
    /// The bus to the other nodes' chat services, when there are others (`joinCluster`).
    let cluster = Mutex<ClusterChannelHub?>(nil)
    /// What this node delivered of each room, for the catch-up after a bus outage.
    let catchUp = Mutex(ChatCatchUp())
    /// Chat webhooks, the before-send hook and the notification hook.
    let hooks: ChatHooks

    /// Creates the service over an opened store; `clock` gives milliseconds since the epoch.
    /// `apps` is the server's live registry (reloaded on SIGHUP); nil: `configuration.apps`, fixed.
    public init(
        configuration: ChatConfiguration, store: any ChatStore, publisher: any ChatPublisher, clock: StoreClock = .system,
        apps: AppRegistry? = nil
    ) {
        self.configuration = configuration
        self.store = store
        self.publisher = publisher
        self.clock = clock
        let apps = apps ?? AppRegistry(ChannelsConfig(apps: configuration.apps))
        self.apps = apps
        verifier = TokenVerifier(app: { apps.app(id: $0) }, leeway: configuration.limits.tokenLeewaySeconds)
        files = AttachmentFiles(root: configuration.dataDirectory)
        thumbnails = ThumbnailWorkers(limit: configuration.limits.thumbnailConcurrency)
        thumbnailSettings = Mutex(ThumbnailSettings(configuration.limits))
        router = Self.makeRouter(devMode: configuration.devMode)
        roomMembers = RoomMembersCache(capacity: configuration.limits.cachedRooms)
        grants = ChannelGrants(guardedPrefixes: configuration.guardedChannelPrefixes)
        hooks = ChatHooks(
            poster: configuration.hookPoster ?? UnconnectedChatHookPoster(), queue: configuration.hookQueue, wallClock: clock.now,
            statistics: configuration.hookStatistics, outboxStore: store as? any HookOutboxStore,
            resolve: { ChatHookTargets.resolve(apps, appID: $0, url: $1) },
            active: { ChatHookTargets.anyConfigured(apps) })
        hooks.outbox?.start()
    }

    /// Answers one request; never throws: every failure is a JSON error response.
    public func handle(_ request: ChatRequest) async -> ChatResponse {
        guard case .found(let route, let parameters) = router.match(method: request.method, segments: request.pathSegments) else {
            return routingError(request) ?? .error(ChatError(.notFound, "no such endpoint"))
        }
        return await answer(request, route: route, parameters: parameters)
    }

    /// Answers a request the transport already matched to `endpoint`, with the pattern's
    /// decoded `parameters`: the same as `handle(_:)` without routing a second time.
    public func handle(_ request: ChatRequest, endpoint: ChatEndpoint, parameters: [String: String]) async -> ChatResponse {
        await answer(request, route: endpoint.route, parameters: parameters)
    }

    private func answer(_ request: ChatRequest, route: ChatRoute, parameters: [String: String]) async -> ChatResponse {
        var context: ChatContext?
        var response: ChatResponse
        do {
            context = try authenticate(request, as: route.access)
            if let context { try await requireCurrentToken(context) }
            response = try await route.handler(self, ChatCall(request: request, parameters: parameters, context: context))
            if request.method == .HEAD { response.body = [] }
        } catch let error as ChatError {
            response = .error(error)
        } catch {
            response = .error(ChatError.from(error, notFound: .notFound))
        }
        response.appID = context?.appID
        response.userID = context?.caller.userID
        return response
    }

    /// The routes as (method, path pattern), for documentation checks.
    public static func routeTable(devMode: Bool) -> [(method: String, path: String)] {
        routeDefinitions(devMode: devMode).map { (method: $0.method.rawValue, path: $0.path) }
    }

    /// Every endpoint of this service's API, for transports that route requests themselves.
    public var endpoints: [ChatEndpoint] {
        Self.routeDefinitions(devMode: configuration.devMode).map {
            ChatEndpoint(method: $0.method, path: $0.path, blocks: $0.blocks, route: $0.route)
        }
    }

    /// Seconds since the epoch by the service clock.
    var nowSeconds: Int64 { clock.now() / 1000 }

    /// Publishes events of one call, in order, and records their chat webhook events (awaited:
    /// with the outbox, a call is answered only once its events are durable), unless the
    /// call's own transaction already wrote them (`hooksRecorded`, a send with the outbox).
    func publish(_ context: ChatContext, _ events: [ChatEvent], hooksRecorded: Bool = false) async {
        guard !events.isEmpty else { return }
        publisher.publish(app: context.appID, events: events)
        recordPublished(app: context.appID, events)
        if !hooksRecorded { await deliverChatHooks(context, events) }
    }

    /// Runs a store call that may change room memberships; the member cache forgets every room
    /// once it returns (or fails: a failure may still have committed), before the caller answers.
    func membershipCall<T: Sendable>(notFound: ChatErrorCode, _ body: () async throws -> T) async throws(ChatError) -> T {
        defer {
            roomMembers.invalidate()
            announce(.membershipsChanged)
        }
        return try await storeCall(notFound: notFound, body)
    }

    /// Runs a store call, turning its failures into chat errors (`notFound` names the subject).
    func storeCall<T: Sendable>(notFound: ChatErrorCode, _ body: () async throws -> T) async throws(ChatError) -> T {
        do {
            return try await body()
        } catch {
            throw ChatError.from(error, notFound: notFound)
        }
    }
}
