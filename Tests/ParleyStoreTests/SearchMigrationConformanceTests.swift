import Testing

@testable import ParleyStore

@Suite("Conformance: messages stored before search")
struct SearchMigrationConformanceTests {
    /// Messages written at schema 12 are found once migration 13 has run; a deleted one is not.
    @Test(arguments: TestEngine.available)
    func migrationThirteenIndexesTheMessagesAlreadyStored(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        try Self.buildVersionTwelve(database.location)
        let store = try await database.open()
        defer { Task { await store.close() } }
        let found = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["zebra"]))
        #expect(found.hits.map(\.message.seq) == [1])
        let accented = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["cafe"]))
        #expect(accented.hits.map(\.message.seq) == [2])
        let deleted = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["secret"]))
        #expect(deleted.hits.isEmpty)
        await store.close()
    }

    /// PostgreSQL vectors made at schema 13 (bare words and a room lexeme) are re-tagged by
    /// migration 14 from their own lexemes and positions: found by word and prefix, ranked by
    /// how often a word occurs, deleted ones still not found, and no room lexeme left.
    @Test func migrationFourteenTagsTheWordsOfVectorsMadeAtThirteen() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        let database = try TestEngine.postgres.makeDatabase()
        defer { database.remove() }
        let context = try Self.buildVersionTwelve(database.location, upTo: 13)
        try context.execute(
            "INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at) VALUES ('a', 'r', 5, 'alice', $1, 1)",
            [.text(#"[{"type":"text","text":"zebra zebra zebra stripes and more words here too"}]"#)])
        let old = try context.queryFirst("SELECT count(*) FROM messages, unnest(search) AS u WHERE left(u.lexeme, 1) = '#'") { $0.int(0) }
        #expect(old == 3, "schema 13 wrote a room lexeme into each vector")
        let store = try await database.open()
        defer { Task { await store.close() } }
        let zebras = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["zebra"]))
        #expect(zebras.hits.map(\.message.seq) == [5, 1], "three zebras in nine words rank above one in three: positions kept")
        let prefixed = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["zeb"], lastWordIsPrefix: true))
        #expect(Set(prefixed.hits.map(\.message.seq)) == [1, 5])
        let accented = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["cafe", "lait"]))
        #expect(accented.hits.map(\.message.seq) == [2])
        let deleted = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["secret"]))
        #expect(deleted.hits.isEmpty)
        let untagged = try await store.database.read { context in
            try context.queryFirst(
                "SELECT count(*) FROM messages, unnest(search) AS u WHERE NOT starts_with(u.lexeme, parley_search_tag(app_id, room_id))"
            ) { $0.int(0) }
        }
        #expect(untagged == 0, "every lexeme is a word behind its room's tag")
        await store.close()
    }

    /// A database at schema 12 (or `upTo`) with a room, its member and three messages (the third
    /// deleted); the connection it was written on.
    @discardableResult
    private static func buildVersionTwelve(_ location: StoreLocation, upTo version: Int = 12) throws -> SQLContext {
        let connection: any SQLConnection =
            switch location {
            case .sqlite(let path): try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: false))
            case .postgres(let url): try PostgresConnection(url: url)
            }
        let context = SQLContext(connection: connection, now: 1_000)
        try Migrator.migrate(context, migrations: Schema.migrations.filter { $0.version <= version })
        try context.execute("INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ('a', 'alice', 'A', 1, 1)")
        try context.execute(
            "INSERT INTO rooms (app_id, id, kind, last_seq, last_activity_at, member_count, created_at, updated_at) VALUES ('a', 'r', 'public', 3, 1, 1, 1, 1)"
        )
        try context.execute("INSERT INTO memberships (app_id, room_id, user_id, role, joined_at) VALUES ('a', 'r', 'alice', 'owner', 1)")
        let rows = [
            (1, #"[{"type":"text","text":"a Zebra crossing"}]"#, "NULL"),
            (2, #"[{"type":"text","text":"Café au lait"}]"#, "NULL"),
            (3, "[]", "5")
        ]
        for (seq, parts, deletedAt) in rows {
            try context.execute(
                """
                INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at, deleted_at)
                VALUES ('a', 'r', \(seq), 'alice', $1, 1, \(deletedAt))
                """, [.text(parts)])
        }
        try context.execute(
            "INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at) VALUES ('a', 'r', 4, 'alice', $1, 1)",
            [.text(#"[{"type":"text","text":"secret"}]"#)])
        try context.execute("UPDATE messages SET parts = '[]', deleted_at = 6 WHERE seq = 4")
        return context
    }
}
