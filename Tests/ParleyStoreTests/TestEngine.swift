import Synchronization
import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// The engines the conformance suite runs against.
enum TestEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The engines to run: SQLite always, PostgreSQL when PARLEY_TEST_POSTGRES_URL names an instance.
    /// When it does not, the "PostgreSQL test instance" suite reports the skip by name.
    static var available: [TestEngine] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// Whether this run must run every test (scripts/test.sh sets PARLEY_TEST_NO_SKIPS=1), so a
    /// missing PostgreSQL instance is a failure rather than a skip.
    static var mustRunEverything: Bool {
        guard let value = getenv("PARLEY_TEST_NO_SKIPS") else { return false }
        return String(cString: value) == "1"
    }

    /// The PostgreSQL instance started by scripts/postgres-test-instance.sh, if the environment names one.
    static var postgresURL: String? {
        guard let value = getenv("PARLEY_TEST_POSTGRES_URL") else { return nil }
        let url = String(cString: value)
        return url.isEmpty ? nil : url
    }

    /// A fresh, empty database of this engine: a temp directory for SQLite, a new schema for PostgreSQL.
    ///
    /// Without PARLEY_TEST_POSTGRES_URL a PostgreSQL database cannot be made (the case is cancelled).
    func makeDatabase() throws -> TestDatabase {
        switch self {
        case .sqlite:
            var template = Array("/tmp/parley-store-test-XXXXXX".utf8CString)
            guard let directory = mkdtemp(&template) else { throw StoreError(.io, "mkdtemp failed") }
            let path = String(cString: directory)
            return TestDatabase(location: .sqlite(inDirectory: path), cleanup: .directory(path))
        case .postgres:
            guard let url = Self.postgresURL else {
                try Test.cancel("PARLEY_TEST_POSTGRES_URL is not set: no PostgreSQL database for this case")
            }
            let schema = "t_" + IdentifierGenerator.make(length: 16)
            let admin = try PostgresConnection(url: url)
            try admin.run("CREATE SCHEMA \(schema)")
            let separator = url.contains("?") ? "&" : "?"
            // The application name lets a test find (and kill) exactly this store's server connections.
            let scoped = url + separator + "options=-c%20search_path%3D\(schema)&application_name=\(schema)"
            return TestDatabase(location: .postgres(url: scoped), cleanup: .schema(url: url, name: schema))
        }
    }
}

/// A throw-away database for one test, and how to remove it afterwards.
struct TestDatabase: Sendable {
    enum Cleanup: Sendable {
        case directory(String)
        case schema(url: String, name: String)
    }

    let location: StoreLocation
    let cleanup: Cleanup

    /// The conformance suite runs on one writer, so tests that hold the writer see every write
    /// queue behind it; WriterPoolTests covers the PostgreSQL pool.
    func configuration(
        clock: StoreClock = .system, maxBatchSize: Int = 512, writers: Int = 1,
        searchIndexBatch: Int = StoreConfiguration.defaultSearchIndexBatch
    ) -> StoreConfiguration {
        var configuration = StoreConfiguration(
            location: location, readerCount: 2, maxBatchSize: maxBatchSize, postgresWriterCount: writers, clock: clock)
        configuration.searchIndexBatch = searchIndexBatch
        return configuration
    }

    func open(
        clock: StoreClock = .system, writers: Int = 1, searchIndexBatch: Int = StoreConfiguration.defaultSearchIndexBatch
    ) async throws -> SQLChatStore {
        try await SQLChatStore.open(
            configuration(
                clock: clock, writers: writers, searchIndexBatch: searchIndexBatch))
    }

    func remove() {
        switch cleanup {
        case .directory(let path):
            for file in ["parley.sqlite", "parley.sqlite-wal", "parley.sqlite-shm"] {
                unlink("\(path)/\(file)")
            }
            rmdir(path)
        case .schema(let url, let name):
            if let admin = try? PostgresConnection(url: url) {
                try? admin.run("DROP SCHEMA \(name) CASCADE")
            }
        }
    }
}

/// Opens a fresh store of `engine`, runs `body`, then closes and removes the database.
func withStore<T>(
    _ engine: TestEngine, clock: StoreClock = .system, writers: Int = 1,
    searchIndexBatch: Int = StoreConfiguration.defaultSearchIndexBatch,
    _ body: (SQLChatStore) async throws -> T
) async throws -> T {
    let database = try engine.makeDatabase()
    defer { database.remove() }
    let store = try await database.open(
        clock: clock, writers: writers, searchIndexBatch: searchIndexBatch)
    do {
        let result = try await body(store)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}

/// A clock that advances one millisecond per reading, so "later" is never ambiguous.
final class TickingClock: Sendable {
    private let ticks = Atomic<Int64>(1_700_000_000_000)

    var storeClock: StoreClock {
        StoreClock { [self] in ticks.add(1, ordering: .relaxed).newValue }
    }
}

/// Expects `body` to throw a `StoreError` with `code`.
func expectStoreError<T>(
    _ code: StoreError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async {
    do {
        _ = try await body()
        Issue.record("expected StoreError \(code.rawValue), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as StoreError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected StoreError \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Shorthand for test fixtures.
extension SQLChatStore {
    @discardableResult
    func makeUser(_ app: String, _ id: String) async throws -> ChatUser {
        try await createUser(app: app, NewUser(id: id, name: id.capitalized))
    }

    @discardableResult
    func makeRoom(_ app: String, kind: RoomKind = .public, creator: String, members: [String] = []) async throws -> Room {
        try await createRoom(app: app, NewRoom(kind: kind, name: "room", creatorID: creator, memberIDs: members))
    }

    @discardableResult
    func send(_ app: String, _ room: String, from sender: String, _ text: String, clientID: String? = nil) async throws -> AppendResult {
        try await appendMessage(app: app, room: room, NewMessage(senderID: sender, clientID: clientID, parts: [.text(text)]))
    }
}

extension String {
    var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
