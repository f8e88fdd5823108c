import Testing

@testable import ParleyStore

private struct DeliberateFailure: Error {}

@Suite("Conformance: group commit, durability, migrations")
struct DatabaseConformanceTests {
    @Test(arguments: TestEngine.available)
    func writesArrivingDuringACommitShareOneTransaction(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            let gate = Gate()
            let before = store.writerStatistics
            let blocker = Task { try await store.database.write { _ in gate.pass() } }
            try await eventually { gate.hasEntered }

            let count = 40
            let sends = (0..<count).map { index in
                Task { try await store.send("a", room.id, from: "alice", "m\(index)") }
            }
            try await eventually { store.writerStatistics.queued == count }
            gate.open()
            try await blocker.value
            for send in sends { _ = try await send.value }

            let after = store.writerStatistics
            #expect(after.operations - before.operations == count + 1)
            #expect(after.transactions - before.transactions == 2, "the \(count) queued sends must commit together")
            #expect(after.largestBatch >= count)
            #expect(after.sharedTransactions > before.sharedTransactions)
            #expect(try await store.room(app: "a", id: room.id).lastSeq == Int64(count))
        }
    }

    @Test(arguments: TestEngine.available)
    func aFailingOperationDoesNotFailItsBatch(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "taken")
            let gate = Gate()
            let blocker = Task { try await store.database.write { _ in gate.pass() } }
            try await eventually { gate.hasEntered }

            let good1 = Task { try await store.makeUser("a", "good1") }
            try await eventually { store.writerStatistics.queued == 1 }
            let duplicate = Task { try await store.makeUser("a", "taken") }
            try await eventually { store.writerStatistics.queued == 2 }
            let halfDone = Task {
                try await store.database.write { context in
                    try context.execute("INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ('a', 'ghost', 'G', 0, 0)")
                    throw DeliberateFailure()
                }
            }
            try await eventually { store.writerStatistics.queued == 3 }
            let good2 = Task { try await store.makeUser("a", "good2") }
            try await eventually { store.writerStatistics.queued == 4 }
            gate.open()
            try await blocker.value

            #expect(try await good1.value.id == "good1")
            #expect(try await good2.value.id == "good2")
            await expectStoreError(.alreadyExists) { try await duplicate.value }
            await #expect(throws: DeliberateFailure.self) { try await halfDone.value }
            let ids = try await store.users(app: "a", after: nil, limit: 10).map(\.id)
            #expect(ids == ["good1", "good2", "taken"], "the failed operation's own insert was rolled back, the others committed")
            #expect(store.writerStatistics.largestBatch >= 4)
        }
    }

    @Test(arguments: TestEngine.available)
    func acknowledgedWritesSurviveReopening(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let store = try await database.open()
        try await store.makeUser("a", "alice")
        let room = try await store.makeRoom("a", creator: "alice")
        let sent = try await withThrowingTaskGroup(of: Message.self) { group in
            for index in 0..<50 {
                group.addTask { try await store.send("a", room.id, from: "alice", "durable \(index)", clientID: "d\(index)").message }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await store.close()
        await expectStoreError(.closed) { try await store.user(app: "a", id: "alice") }
        await expectStoreError(.closed) { try await store.makeUser("a", "late") }

        let reopened = try await database.open()
        let history = try await reopened.history(app: "a", room: room.id, HistoryQuery(limit: 100))
        #expect(history.count == 50)
        #expect(Set(history.map(\.id)) == Set(sent.map(\.id)))
        let retry = try await reopened.send("a", room.id, from: "alice", "durable again", clientID: "d7")
        #expect(!retry.created, "idempotency survives a restart")
        await reopened.close()
    }

    @Test(arguments: TestEngine.available)
    func refusesASchemaFromTheFuture(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let store = try await database.open()
        let version = try await store.database.read { try Migrator.currentVersion($0) }
        #expect(version == Schema.latestVersion)
        _ = try await store.database.write { context in
            try context.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'future', 0)",
                [.int(Schema.latestVersion + 1)])
        }
        await store.close()
        await expectStoreError(.schemaTooNew) { try await database.open() }
    }

    @Test(arguments: TestEngine.available)
    func reopeningAppliesNoMigrationTwice(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let first = try await database.open()
        try await first.makeUser("a", "alice")
        await first.close()
        let second = try await database.open()
        let rows = try await second.database.read { context in
            try context.query("SELECT version FROM schema_migrations ORDER BY version") { $0.int(0) }
        }
        #expect(rows == Schema.migrations.map(\.version).sorted())
        #expect(try await second.user(app: "a", id: "alice").id == "alice")
        await second.close()
    }

    @Test(arguments: TestEngine.available)
    func rawWritesAndReadsThroughTheDatabase(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let inserted = try await store.database.write { context in
                try context.execute("CREATE TABLE scratch (k TEXT PRIMARY KEY, v BIGINT NOT NULL, b BYTEA)")
                return try context.execute(
                    "INSERT INTO scratch (k, v, b) VALUES ($1, $2, $3), ($4, $5, NULL)",
                    ["one", .integer(-42), .blob([0, 1, 254, 255]), "two", .integer(Int64.max)])
            }
            #expect(inserted == 2)
            let rows = try await store.database.read { context in
                try context.query("SELECT k, v, b FROM scratch ORDER BY k") { ($0.text(0), $0.int64(1), $0.blob(2), $0.isNull(2)) }
            }
            #expect(rows.map(\.0) == ["one", "two"])
            #expect(rows.map(\.1) == [-42, Int64.max])
            #expect(rows[0].2 == [0, 1, 254, 255])
            #expect(rows[1].3)
            await #expect(throws: StoreError.self) {
                try await store.database.write { context in try context.execute("INSERT INTO scratch (k, v) VALUES ('one', 1)") }
            }
            await expectStoreError(.alreadyExists) {
                try await store.database.write { context in try context.execute("INSERT INTO scratch (k, v) VALUES ('one', 1)") }
            }
            await expectStoreError(.constraintViolation) {
                try await store.database.write { context in try context.execute("INSERT INTO scratch (k, v) VALUES ('three', NULL)") }
            }
        }
    }
}

@Suite("Conformance: durability settings")
struct DurabilitySettingsTests {
    @Test(arguments: TestEngine.available)
    func writerCommitsDurably(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let settings = try await store.database.write { context -> [String] in
                switch context.dialect {
                case .sqlite:
                    let journal = try context.queryFirst("PRAGMA journal_mode") { $0.text(0) } ?? ""
                    let synchronous = try context.queryFirst("PRAGMA synchronous") { $0.int(0) } ?? -1
                    let foreignKeys = try context.queryFirst("PRAGMA foreign_keys") { $0.int(0) } ?? -1
                    // NORMAL: COMMIT writes the log without fsync; the WAL syncer flushes it before
                    // any caller is answered (WALSyncerTests show the ordering).
                    return [journal, synchronous == 1 ? "normal" : "\(synchronous)", foreignKeys == 1 ? "fk" : "no-fk"]
                case .postgres:
                    return [try context.queryFirst("SHOW synchronous_commit") { $0.text(0) } ?? ""]
                }
            }
            #expect(settings == (engine == .sqlite ? ["wal", "normal", "fk"] : ["on"]))
            #expect((store.database.syncer != nil) == (engine == .sqlite))
        }
    }
}

@Suite("PostgreSQL: lost connections")
struct PostgresReconnectTests {
    @Test(.enabled(if: TestEngine.postgresURL != nil, "needs PARLEY_TEST_POSTGRES_URL"))
    func storeRecoversWhenTheServerDropsItsConnections() async throws {
        let database = try TestEngine.postgres.makeDatabase()
        defer { database.remove() }
        guard case .schema(let url, let name) = database.cleanup else { return }
        let store = try await database.open()
        try await store.makeUser("a", "alice")
        _ = try await store.user(app: "a", id: "alice")

        let admin = try PostgresConnection(url: url)
        var killed = 0
        try admin.query(
            """
            SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = $1
            """, [.text(name)]
        ) { _ in killed += 1 }
        #expect(killed >= 2, "the writer and at least one reader were connected")

        let bob = try await store.makeUser("a", "bob")
        #expect(bob.id == "bob", "the writer reconnects before a batch whose BEGIN found the connection dead")
        #expect(try await store.users(app: "a", after: nil, limit: 10).map(\.id) == ["alice", "bob"])
        #expect(try await store.user(app: "a", id: "alice").id == "alice")
        await store.close()
    }
}
