import ParleyChannels
import ParleyWire
import Synchronization
import Testing

@testable import ParleyChat
@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// The engines the service tests run against: SQLite always, PostgreSQL when PARLEY_TEST_POSTGRES_URL is set.
enum ChatEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var available: [ChatEngine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    static var postgresURL: String? {
        guard let value = getenv("PARLEY_TEST_POSTGRES_URL") else { return nil }
        let url = String(cString: value)
        return url.isEmpty ? nil : url
    }
}

/// Events the service published, in order.
final class RecordingPublisher: ChatPublisher {
    private let recorded = Mutex<[(app: String, event: ChatEvent)]>([])

    func publish(app: String, events: [ChatEvent]) {
        recorded.withLock { $0 += events.map { (app: app, event: $0) } }
    }

    var events: [ChatEvent] { recorded.withLock { $0.map(\.event) } }

    func events(on channel: String) -> [ChatEvent] { events.filter { $0.channel == channel } }

    func names(on channel: String) -> [String] { events(on: channel).map(\.name) }

    func apps() -> [String] { recorded.withLock { $0.map(\.app) } }

    func clear() { recorded.withLock { $0.removeAll() } }

    private let revoked = Mutex<[SubscriptionRevocation]>([])
    private let disconnected = Mutex<[String]>([])

    func revoke(app: String, _ revocations: [SubscriptionRevocation]) { revoked.withLock { $0 += revocations } }
    func disconnect(app: String, user: String) { disconnected.withLock { $0.append(user) } }

    /// Every revocation handed over, in order.
    var revocations: [SubscriptionRevocation] { revoked.withLock { $0 } }
    /// The users whose connections were closed, in order.
    var disconnectedUsers: [String] { disconnected.withLock { $0 } }
}

/// Hands everything to a recorder and to a real hub.
struct TeePublisher: ChatPublisher {
    let recorder: RecordingPublisher
    let hub: HubChatPublisher

    func publish(app: String, events: [ChatEvent]) {
        recorder.publish(app: app, events: events)
        hub.publish(app: app, events: events)
    }

    func revoke(app: String, _ revocations: [SubscriptionRevocation]) {
        recorder.revoke(app: app, revocations)
        hub.revoke(app: app, revocations)
    }

    func disconnect(app: String, user: String) {
        recorder.disconnect(app: app, user: user)
        hub.disconnect(app: app, user: user)
    }
}

/// A clock that ticks one millisecond per reading and can jump ahead.
final class ManualClock: Sendable {
    private let milliseconds = Atomic<Int64>(1_700_000_000_000)

    var storeClock: StoreClock { StoreClock { [self] in milliseconds.add(1, ordering: .relaxed).newValue } }

    var seconds: Int64 { milliseconds.load(ordering: .relaxed) / 1000 }

    func advance(seconds: Int64) { milliseconds.add(seconds * 1000, ordering: .relaxed) }
}

/// A decoded response.
struct Reply {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    var json: JSONValue { (try? JSONParser.parse(body)) ?? .null }
    var errorCode: String? { json["error"]?["code"]?.stringValue }
    subscript(key: String) -> JSONValue? { json[key] }
}

/// How a test request authenticates.
enum Credentials {
    case none
    case user(String, app: AppConfig)
    case bearer(String)
    case app(AppConfig)
}

/// A chat service over a fresh store, two apps, a recording publisher and a manual clock.
final class ChatHarness: Sendable {
    static let appA = AppConfig(id: "1", key: "key-a", secret: "secret-a")
    static let appB = AppConfig(id: "2", key: "key-b", secret: "secret-b")

    let service: ChatService
    let store: SQLChatStore
    let publisher: RecordingPublisher
    let clock: ManualClock
    let dataDirectory: String
    /// The database, and the service's configuration: what a second node shares.
    let location: StoreLocation
    let configuration: ChatConfiguration
    private let cleanup: @Sendable () -> Void

    private init(
        service: ChatService, store: SQLChatStore, publisher: RecordingPublisher, clock: ManualClock,
        dataDirectory: String, location: StoreLocation, configuration: ChatConfiguration, cleanup: @escaping @Sendable () -> Void
    ) {
        self.service = service
        self.store = store
        self.publisher = publisher
        self.clock = clock
        self.dataDirectory = dataDirectory
        self.location = location
        self.configuration = configuration
        self.cleanup = cleanup
    }

    /// Runs `body` with a second node: another chat service with its own caches and gates on
    /// the same database (through a store of its own on PostgreSQL; on SQLite, which one
    /// process owns, through the same store) and the same clock.
    func withSecondNode<T>(_ body: (ChatHarness) async throws -> T) async throws -> T {
        let ownStore = location.isPostgres
        let second = ownStore ? try await SQLChatStore.open(StoreConfiguration(location: location, clock: clock.storeClock)) : store
        let recorder = RecordingPublisher()
        let node = ChatHarness(
            service: ChatService(configuration: configuration, store: second, publisher: recorder, clock: clock.storeClock),
            store: second, publisher: recorder, clock: clock, dataDirectory: dataDirectory, location: location,
            configuration: configuration, cleanup: {})
        do {
            let result = try await body(node)
            if ownStore { await second.close() }
            return result
        } catch {
            if ownStore { await second.close() }
            throw error
        }
    }

    /// Opens a harness, runs `body`, closes and removes everything.
    static func with<T>(
        _ engine: ChatEngine = .sqlite, devMode: Bool = false, limits: ChatLimits = .unthrottled,
        apps: [AppConfig] = [appA, appB],
        otherChannels: (@Sendable (String, String, String) async -> ChannelAuthorization)? = nil,
        hub: LocalChannelHub? = nil, alsoGuarded: [String] = [],
        _ body: (ChatHarness) async throws -> T
    ) async throws -> T {
        var template = Array("/tmp/parley-chat-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw StoreError(.io, "mkdtemp failed") }
        let directory = String(cString: made)
        var location = StoreLocation.sqlite(inDirectory: directory)
        var dropSchema: (@Sendable () -> Void)?
        if engine == .postgres {
            guard let url = ChatEngine.postgresURL else { try Test.cancel("PARLEY_TEST_POSTGRES_URL is not set") }
            let schema = "chat_" + IdentifierGenerator.make(length: 16)
            try PostgresConnection(url: url).run("CREATE SCHEMA \(schema)")
            let separator = url.contains("?") ? "&" : "?"
            location = .postgres(url: url + separator + "options=-c%20search_path%3D\(schema)")
            dropSchema = { try? PostgresConnection(url: url).run("DROP SCHEMA \(schema) CASCADE") }
        }
        let clock = ManualClock()
        let store = try await SQLChatStore.open(StoreConfiguration(location: location, clock: clock.storeClock))
        let publisher = RecordingPublisher()
        var configuration = ChatConfiguration(
            apps: apps, dataDirectory: directory, devMode: devMode, limits: limits,
            otherChannels: otherChannels)
        configuration.guardedChannelPrefixes += alsoGuarded
        var servicePublisher: any ChatPublisher = publisher
        if let hub {
            let registry = AppRegistry(ChannelsConfig(apps: apps))
            servicePublisher = TeePublisher(recorder: publisher, hub: HubChatPublisher(hub: hub, apps: registry))
        }
        let service = ChatService(configuration: configuration, store: store, publisher: servicePublisher, clock: clock.storeClock)
        if let hub { service.guardSubscriptions(on: hub) }
        let drop = dropSchema
        let harness = ChatHarness(
            service: service, store: store, publisher: publisher, clock: clock, dataDirectory: directory, location: location,
            configuration: configuration
        ) {
            drop?()
            removeTree(directory)
        }
        do {
            let result = try await body(harness)
            await store.close()
            harness.cleanup()
            return result
        } catch {
            await store.close()
            harness.cleanup()
            throw error
        }
    }

    /// A user token of `app` valid for an hour from the harness clock.
    func token(_ user: String, app: AppConfig = appA, lifetime: Int64 = 3600) -> String {
        TokenMinter(appID: app.id, secret: app.secret).mint(userID: user, now: clock.seconds, lifetime: lifetime)
    }

    /// Sends a request and decodes the answer.
    @discardableResult
    func call(
        _ method: HTTPMethod, _ target: String, as credentials: Credentials = .none, json: JSONValue? = nil,
        body: [UInt8]? = nil, headers extra: [(String, String)] = []
    ) async -> Reply {
        var headers = HTTPHeaders()
        switch credentials {
        case .none: break
        case .user(let user, let app): headers.add("Authorization", "Bearer " + token(user, app: app))
        case .bearer(let token): headers.add("Authorization", "Bearer " + token)
        case .app(let app): headers.add("Authorization", "Basic " + Base64.encode(Array("\(app.key):\(app.secret)".utf8)))
        }
        var bytes: [UInt8] = body ?? []
        if let json {
            bytes = JSONWriter.serialize(json)
            headers.add("Content-Type", "application/json")
        }
        for (name, value) in extra { headers.replace(name, value) }
        let request = try! ChatRequest(method: method, target: target, headers: headers, body: bytes)
        let response = await service.handle(request)
        return Reply(status: response.status.code, headers: response.headers, body: response.body)
    }

    // MARK: Fixtures

    /// Creates users through the API as the app.
    func createUsers(_ ids: String..., app: AppConfig = appA) async {
        for id in ids {
            let reply = await call(.POST, "/v1/users", as: .app(app), json: .object(["id": .string(id), "name": .string(id.capitalized)]))
            #expect(reply.status == 201, "creating \(id): \(reply.json)")
        }
    }

    /// Creates a room as `creator` with members; returns its id.
    func createRoom(_ creator: String, kind: String = "private", members: [String] = [], app: AppConfig = appA) async -> String {
        let reply = await call(
            .POST, "/v1/rooms", as: .user(creator, app: app),
            json: .object([
                "kind": .string(kind), "name": .string("room"),
                "member_ids": .array(members.map(JSONValue.string))
            ]))
        #expect(reply.status == 201, "\(reply.json)")
        return reply["id"]?.stringValue ?? ""
    }

    /// Sends a text message as `user`; returns the reply.
    @discardableResult
    func send(_ user: String, room: String, _ text: String, clientID: String? = nil, app: AppConfig = appA) async -> Reply {
        var body: JSONObject = ["parts": .array([.object(["type": .string("text"), "text": .string(text)])])]
        if let clientID { body["client_id"] = .string(clientID) }
        return await call(.POST, "/v1/rooms/\(room)/messages", as: .user(user, app: app), json: .object(body))
    }
}

extension StoreLocation {
    fileprivate var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }
}

extension ChatLimits {
    /// The default limits without the per-user rate limits (the manual clock hardly moves).
    static var unthrottled: ChatLimits {
        var limits = ChatLimits()
        limits.userRateLimits = false
        return limits
    }
}

extension String {
    var capitalized: String { prefix(1).uppercased() + dropFirst() }
}

/// Removes a directory tree (test data only).
func removeTree(_ path: String) {
    guard let directory = opendir(path) else {
        unlink(path)
        return
    }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name == "." || name == ".." { continue }
        let child = path + "/" + name
        if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
    }
    closedir(directory)
    rmdir(path)
}
