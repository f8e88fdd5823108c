import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

@Suite("Store building blocks")
struct StoreUnitTests {
    @Test func messagePartsRoundTripThroughJSON() throws {
        let parts: [MessagePart] = [
            .text("a \"quoted\" \\ line\nnext\t\u{01}\u{1F} 🙂 ü"), .attachment(id: "att-1"), .url("https://x.y/z?a=1&b=\"2\"")
        ]
        let json = MessagePartsJSON.encode(parts)
        #expect(!json.contains("\n"), "control characters are escaped")
        #expect(try MessagePartsJSON.decode(json) == parts)
        #expect(try MessagePartsJSON.decode("[]") == [])
        #expect(try MessagePartsJSON.decode(#" [ { "type" : "text", "text" : "\u00e9\ud83d\ude00\/" } ] "#) == [.text("é😀/")])
    }

    @Test(arguments: [
        "", "[", "[{}]", #"[{"type":"text"}]"#, #"[{"type":"video","url":"x"}]"#, #"[{"type":"text","text":"x"}] junk"#,
        #"[{"type":"text","text":"\ud800"}]"#, #"[{"type":"text","text":"\q"}]"#, #"{"type":"text"}"#
    ])
    func malformedPartsAreRejected(_ json: String) {
        #expect(throws: StoreError.self) { try MessagePartsJSON.decode(json) }
    }

    @Test func numberedParametersBecomeSQLiteParameters() {
        #expect(
            SQLiteConnection.sqliteParameters("SELECT $1, $12 FROM t WHERE a = $2 AND b = '$'")
                == "SELECT ?1, ?12 FROM t WHERE a = ?2 AND b = '$'")
    }

    @Test func sqlStatesMapToStableCodes() {
        #expect(PostgresConnection.code(forSQLState: "23505") == .alreadyExists)
        #expect(PostgresConnection.code(forSQLState: "23503") == .foreignKeyViolation)
        #expect(PostgresConnection.code(forSQLState: "23502") == .constraintViolation)
        #expect(PostgresConnection.code(forSQLState: "40P01") == .busy)
        #expect(PostgresConnection.code(forSQLState: "08006") == .connectionLost)
        #expect(PostgresConnection.code(forSQLState: "53100") == .io)
        #expect(PostgresConnection.code(forSQLState: "42601") == .internal)
    }

    @Test func errorCodesAreStable() {
        #expect(
            StoreError.Code.allCases.map(\.rawValue) == [
                "not_found", "already_exists", "foreign_key_violation", "constraint_violation", "conflict", "invalid_argument",
                "not_member", "last_admin", "schema_too_new", "busy", "io", "corrupt", "connection_lost", "closed", "internal",
                "retired", "limit_reached", "parent_not_found", "parent_deleted", "quoted_not_found", "quoted_deleted", "slow_mode"
            ])
    }

    @Test func databaseArgumentSelectsTheEngine() {
        #expect(StoreLocation(databaseArgument: nil, dataDirectory: "/var/parley/") == .sqlite(path: "/var/parley/parley.sqlite"))
        #expect(
            StoreLocation(databaseArgument: "postgres://u:secret@db/parley", dataDirectory: "/d")
                == .postgres(url: "postgres://u:secret@db/parley"))
        #expect(StoreLocation(databaseArgument: "postgresql:///x?host=/s", dataDirectory: "/d").dialect == .postgres)
        #expect(StoreLocation(databaseArgument: "/tmp/chat.db", dataDirectory: "/d") == .sqlite(path: "/tmp/chat.db"))
        #expect(StoreLocation.postgres(url: "postgres://u:secret@db/parley").description == "postgres://u:***@db/parley")
        #expect(!StoreLocation.postgres(url: "postgres://u:secret@db/parley").description.contains("secret"))
    }

    @Test func jobQueueIsFirstInFirstOut() {
        var queue = JobQueue<Int>()
        for value in 1...5 { queue.append(value) }
        #expect(queue.popFirst() == 1)
        #expect(queue.popFirst(upTo: 3) == [2, 3, 4])
        queue.append(6)
        #expect(queue.count == 2)
        #expect(queue.popFirst(upTo: 10) == [5, 6])
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }

    @Test func unopenableSQLiteFileIsAnIOError() async {
        await expectStoreError(.io) {
            try await StoreDatabase.open(StoreConfiguration(location: .sqlite(path: "/nonexistent-dir/sub/parley.sqlite")))
        }
    }

    @Test func unreachablePostgresIsAConnectionError() async {
        await expectStoreError(.connectionLost) {
            try await StoreDatabase.open(
                StoreConfiguration(location: .postgres(url: "postgresql:///none?host=/nonexistent-socket-dir&connect_timeout=2")))
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefused() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        guard case .sqlite(let path) = database.location else { return }
        let file = fopen(path, "w")
        fputs(String(repeating: "this is not an SQLite database ", count: 100), file)
        fclose(file)
        await #expect(throws: StoreError.self) { try await database.open() }
    }
}
