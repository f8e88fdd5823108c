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

    /// Messages indexed by migration 13, still in its queue, edited and deleted there are
    /// indexed under their rooms' tags by migration 16: the index holds exactly the live messages.
    @Test func migrationSixteenIndexesWhatMigrationThirteenHeld() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        guard case .sqlite(let path) = database.location else { return }
        do {
            let connection = try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: false))
            let context = SQLContext(connection: connection, now: 1_000)
            try Migrator.migrate(context, migrations: Schema.migrations.filter { $0.version < 14 })
            try context.execute("INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ('a', 'alice', 'A', 1, 1)")
            for room in ["r", "s"] {
                try context.execute(
                    "INSERT INTO rooms (app_id, id, kind, last_seq, last_activity_at, member_count, created_at, updated_at) VALUES ('a', $1, 'public', 9, 1, 1, 1, 1)",
                    [.text(room)])
                try context.execute(
                    "INSERT INTO memberships (app_id, room_id, user_id, role, joined_at) VALUES ('a', $1, 'alice', 'admin', 1)",
                    [.text(room)])
            }
            func insert(_ room: String, _ seq: Int, _ words: String) throws {
                try context.execute(
                    """
                    INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at, search_doc)
                    VALUES ('a', $1, $2, 'alice', json_array(json_object('type', 'text', 'text', $3)), 1, $3)
                    """, [.text(room), .int(seq), .text(words)])
            }
            try insert("r", 1, "indexed zebra")
            try insert("s", 1, "indexed zebra elsewhere")
            try insert("r", 2, "edited before")
            try insert("r", 3, "deleted zebra")
            for statement in Schema.flushVersionThirteenSQL { try context.execute(statement, []) }
            try insert("r", 4, "queued zebra")
            try context.execute("UPDATE messages SET search_doc = 'edited after' WHERE seq = 2 AND room_id = 'r'")
            try context.execute("UPDATE messages SET deleted_at = 5 WHERE seq = 3 AND room_id = 'r'")
        }
        let store = try await database.open()
        defer { Task { await store.close() } }
        func found(_ words: [String]) async throws -> [String] {
            try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: words, limit: 50)).hits
                .map { $0.message.roomID + String($0.message.seq) }.sorted()
        }
        #expect(try await found(["zebra"]) == ["r1", "r4", "s1"])
        #expect(try await found(["edited", "after"]) == ["r2"])
        #expect(try await found(["before"]).isEmpty)
        let (counts, queued) = try await store.database.write { context in
            try SearchIndexSQLiteTests.integrityCheck(context)
            return (
                try SearchIndexSQLiteTests.indexCounts(context, app: "a", rooms: ["r", "s"]),
                try context.queryFirst(
                    "SELECT (SELECT max(id) FROM messages) - indexed_through FROM message_search_state", []
                ) { $0.int(0) }
            )
        }
        #expect(counts.indexed == 4 && counts.expected == 4, "\(counts)")
        #expect(queued == 0, "nothing waits above the watermark")
        await store.close()
    }

    /// The version of the migration that replaces the search queue by a watermark.
    private static let watermarkVersion = Schema.migrations.first { $0.name == "search index watermark" }!.version

    /// Messages in the index, in the queue, edited and deleted in either before the watermark
    /// migration are all where they belong after it: the queue is moved into the index, the
    /// watermark is the newest id, and the next sends and edits are indexed by the new rules.
    @Test func theWatermarkMigrationMovesTheQueueIntoTheIndex() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        guard case .sqlite(let path) = database.location else { return }
        do {
            let connection = try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: false))
            let context = SQLContext(connection: connection, now: 1_000)
            try Migrator.migrate(context, migrations: Schema.migrations.filter { $0.version < Self.watermarkVersion })
            try context.execute("INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ('a', 'alice', 'A', 1, 1)")
            try context.execute(
                "INSERT INTO rooms (app_id, id, kind, last_seq, last_activity_at, member_count, created_at, updated_at) VALUES ('a', 'r', 'public', 9, 1, 1, 1, 1)"
            )
            try context.execute(
                "INSERT INTO memberships (app_id, room_id, user_id, role, joined_at) VALUES ('a', 'r', 'alice', 'admin', 1)")
            func insert(_ seq: Int, _ words: String) throws {
                try context.execute(
                    """
                    INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at, search_doc)
                    VALUES ('a', 'r', $1, 'alice', json_array(json_object('type', 'text', 'text', $2)), 1, $2)
                    """, [.int(seq), .text(words)])
            }
            try insert(1, "indexed quokka")
            try insert(2, "indexed then edited")
            try insert(3, "indexed then deleted quokka")
            for statement in Schema.flushSearchIndexSQL { try context.execute(statement, []) }
            try insert(4, "queued quokka")
            try insert(5, "queued then edited")
            try insert(6, "queued then deleted quokka")
            try context.execute("UPDATE messages SET search_doc = 'edited indexed' WHERE seq = 2")
            try context.execute("UPDATE messages SET search_doc = 'edited queued' WHERE seq = 5")
            try context.execute("UPDATE messages SET deleted_at = 5 WHERE seq IN (3, 6)")
            let queued = try context.queryFirst("SELECT count(*) FROM message_search_pending", []) { $0.int(0) }
            #expect(queued == 4, "the queue holds 4, 5, 6 (deleted since) and 2's new words")
        }
        let store = try await database.open()
        defer { Task { await store.close() } }
        func found(_ words: [String]) async throws -> [Int64] {
            try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: words, limit: 50)).hits
                .map(\.message.seq).sorted()
        }
        let state = try await store.database.write { context in
            try SearchIndexSQLiteTests.integrityCheck(context)
            return (
                counts: try SearchIndexSQLiteTests.indexCounts(context, app: "a", rooms: ["r"]),
                watermark: try context.queryFirst("SELECT indexed_through FROM message_search_state", []) { $0.int64(0) },
                largest: try context.queryFirst("SELECT max(id) FROM messages", []) { $0.int64(0) },
                queue: try context.queryFirst("SELECT count(*) FROM sqlite_master WHERE name = 'message_search_pending'", []) {
                    $0.int(0)
                }
            )
        }
        #expect(state.counts.indexed == 4 && state.counts.expected == 4, "\(state.counts)")
        #expect(state.watermark == state.largest && state.queue == 0)
        #expect(try await found(["quokka"]) == [1, 4])
        #expect(try await found(["edited"]) == [2, 5])
        #expect(try await found(["then"]).isEmpty)
        _ = try await store.editMessage(app: "a", room: "r", id: 1, parts: [.text("wombat now")])
        #expect(try await found(["quokka"]) == [4])
        #expect(try await found(["wombat"]) == [1])
        let counts = try await store.database.write { context in
            try SearchIndexSQLiteTests.integrityCheck(context)
            return try SearchIndexSQLiteTests.indexCounts(context, app: "a", rooms: ["r"])
        }
        #expect(counts.indexed == 4 && counts.expected == 4, "\(counts)")
        await store.close()
    }

    /// PostgreSQL vectors made at schema 13 (bare words and a room lexeme) are re-tagged by
    /// migration 16 from their own lexemes and positions: found by word and prefix, ranked by
    /// how often a word occurs, deleted ones still not found, and no room lexeme left.
    @Test func migrationSixteenTagsTheWordsOfVectorsMadeAtThirteen() async throws {
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
