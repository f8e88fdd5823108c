import ParleyDocs
import ParleyText
import Synchronization
import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// The engines the persistence tests run on: SQLite always, PostgreSQL when
/// PARLEY_TEST_POSTGRES_URL names an instance (scripts/postgres-test-instance.sh).
enum DocsEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var available: [DocsEngine] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    static var postgresURL: String? {
        guard let value = getenv("PARLEY_TEST_POSTGRES_URL") else { return nil }
        let url = String(cString: value)
        return url.isEmpty ? nil : url
    }

    /// A fresh database location and its cleanup.
    func makeLocation() throws -> (StoreLocation, @Sendable () -> Void) {
        switch self {
        case .sqlite:
            var template = Array("/tmp/parley-docs-test-XXXXXX".utf8CString)
            guard let directory = mkdtemp(&template) else { throw StoreError(.io, "mkdtemp failed") }
            let path = String(cString: directory)
            return (
                .sqlite(inDirectory: path),
                {
                    for file in ["parley.sqlite", "parley.sqlite-wal", "parley.sqlite-shm"] { unlink("\(path)/\(file)") }
                    rmdir(path)
                }
            )
        case .postgres:
            guard let url = Self.postgresURL else { try Test.cancel("PARLEY_TEST_POSTGRES_URL is not set") }
            let schema = "d_" + IdentifierGenerator.make(length: 16)
            try PostgresConnection(url: url).run("CREATE SCHEMA \(schema)")
            let separator = url.contains("?") ? "&" : "?"
            return (
                .postgres(url: url + separator + "options=-c%20search_path%3D\(schema)"),
                {
                    try? PostgresConnection(url: url).run("DROP SCHEMA \(schema) CASCADE")
                }
            )
        }
    }
}

/// Collects broadcasts in order.
final class RecordingPublisher: DocumentPublisher {
    private let recorded = Mutex<[DocumentBroadcast]>([])

    func publish(_ broadcast: DocumentBroadcast) {
        recorded.withLock { $0.append(broadcast) }
    }

    var all: [DocumentBroadcast] { recorded.withLock { $0 } }

    /// Removes and returns everything recorded so far.
    func take() -> [DocumentBroadcast] {
        recorded.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}

/// Room membership answered by the chat store, as the server does it.
struct ChatMembership: RoomMembership {
    let chat: SQLChatStore

    func isMember(app: String, room: String, user: String) async throws -> Bool {
        try await chat.membership(app: app, room: room, user: user) != nil
    }
}

/// A clock the test moves by hand (milliseconds).
final class ManualClock: Sendable {
    private let value = Atomic<Int64>(1_000_000)

    var storeClock: StoreClock { StoreClock { [self] in value.load(ordering: .relaxed) } }

    func advance(by milliseconds: Int64) {
        value.add(milliseconds, ordering: .relaxed)
    }
}

/// A database with chat users alice, bob (members of `roomID`) and mallory (not a member).
struct DocsFixture: Sendable {
    static let app = "app"

    let location: StoreLocation
    let cleanup: @Sendable () -> Void
    let chat: SQLChatStore
    let roomID: String

    static func make(_ engine: DocsEngine = .sqlite) async throws -> DocsFixture {
        let (location, cleanup) = try engine.makeLocation()
        let chat = try await SQLChatStore.open(StoreConfiguration(location: location))
        for user in ["alice", "bob", "mallory"] {
            _ = try await chat.createUser(app: app, NewUser(id: user, name: user))
        }
        let room = try await chat.createRoom(app: app, NewRoom(kind: .private, name: "r", creatorID: "alice", memberIDs: ["bob"]))
        return DocsFixture(location: location, cleanup: cleanup, chat: chat, roomID: room.id)
    }

    /// The same database opened again (after `chat` was closed).
    func reopened() async throws -> DocsFixture {
        DocsFixture(
            location: location, cleanup: cleanup,
            chat: try await SQLChatStore.open(StoreConfiguration(location: location)), roomID: roomID)
    }

    func service(
        publisher: RecordingPublisher, configuration: DocumentsConfiguration = DocumentsConfiguration(),
        clock: StoreClock = .system
    ) -> DocumentsService {
        DocumentsService(
            app: Self.app, store: SQLDocumentStore(database: chat.database), membership: ChatMembership(chat: chat),
            publisher: publisher, configuration: configuration, clock: clock)
    }

    var documentStore: SQLDocumentStore { SQLDocumentStore(database: chat.database) }

    func close() async {
        await chat.close()
        cleanup()
    }
}

/// Runs `body` with a fresh fixture and removes it afterwards.
func withFixture(_ engine: DocsEngine = .sqlite, _ body: (DocsFixture) async throws -> Void) async throws {
    let fixture = try await DocsFixture.make(engine)
    do {
        try await body(fixture)
    } catch {
        await fixture.close()
        throw error
    }
    await fixture.close()
}

/// A Yjs-style client: its own replica, speaking y-protocols to the service.
struct TestClient {
    var doc: TextDocument
    let participant: DocumentParticipant

    init(_ user: String, connection: String, clientID: UInt64) {
        doc = TextDocument(clientID: clientID)
        participant = DocumentParticipant(userID: user, connectionID: connection)
    }

    /// The client's side of the protocol: answers step 1, applies step 2 and updates.
    mutating func process(_ bytes: [UInt8]) throws -> [[UInt8]] {
        switch try YSyncMessage.decode(bytes) {
        case .syncStep1(let vector):
            return [YSyncMessage.syncStep2(update: try doc.encodeStateAsUpdate(since: vector)).encode()]
        case .syncStep2(let update), .update(let update):
            try doc.applyUpdate(update)
            return []
        default:
            return []
        }
    }

    /// Joins (or rejoins) and runs the sync handshake to completion, as y-websocket does.
    mutating func connect(to service: DocumentsService, document: String) async throws {
        var inbox = try await service.join(participant, documentID: document)
        inbox += try await service.handleSync(
            participant, documentID: document,
            message: YSyncMessage.syncStep1(stateVector: doc.encodeStateVector()).encode())
        while !inbox.isEmpty {
            let message = inbox.removeFirst()
            for reply in try process(message) {
                inbox += try await service.handleSync(participant, documentID: document, message: reply)
            }
        }
    }

    /// Sends the local edits as an update message.
    mutating func push(to service: DocumentsService, document: String) async throws {
        let update = doc.takeLocalUpdate()
        guard let update else { return }
        let replies = try await service.handleSync(participant, documentID: document, message: YSyncMessage.update(update).encode())
        #expect(replies.isEmpty)
    }

    /// Applies the broadcasts meant for this client.
    mutating func receive(_ broadcasts: [DocumentBroadcast]) throws {
        for broadcast in broadcasts where broadcast.origin != participant && broadcast.kind == .update {
            _ = try process(broadcast.message)
        }
    }
}

/// Expects `body` to throw a `DocumentsError` with `code`.
func expectDocsError<T>(
    _ code: DocumentsError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async {
    do {
        _ = try await body()
        Issue.record("expected \(code.rawValue), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as DocumentsError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}
